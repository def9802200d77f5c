package fencing.grader;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Writes a grade as {@code results.json} (Gradescope's format), {@code summary.md} and JUnit XML reports. */
public final class Reports {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Reports() {
    }

    /** Writes every report for {@code grade} into {@code out}, replacing earlier ones. */
    public static void write(Grade grade, Path out) throws IOException {
        Files.createDirectories(out);
        Files.writeString(out.resolve("results.json"), resultsJson(grade), StandardCharsets.UTF_8);
        Files.writeString(out.resolve("summary.md"), summary(grade), StandardCharsets.UTF_8);
        writeJunitXml(grade, Files.createDirectories(out.resolve("junit")));
    }

    /** Returns the Gradescope autograder results for {@code grade}. */
    static String resultsJson(Grade grade) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("score", grade.score());
        root.put("max_score", grade.maxScore());
        root.put("output", overallOutput(grade));
        root.put("visibility", "visible");
        List<Map<String, Object>> tests = new ArrayList<>();
        for (TestResult result : grade.results()) {
            Map<String, Object> test = new LinkedHashMap<>();
            test.put("name", result.test().name());
            test.put("score", result.score());
            test.put("max_score", result.test().points());
            test.put("status", result.passed() ? "passed" : "failed");
            test.put("output", result.message());
            test.put("tags", result.tags());
            test.put("visibility", "visible");
            tests.add(test);
        }
        root.put("tests", tests);
        return JSON.writeValueAsString(root);
    }

    private static String overallOutput(Grade grade) {
        if (!grade.compiled()) {
            return "Compilation failed\n" + grade.compilerOutput();
        }
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "Score: %d / %d", grade.score(), grade.maxScore()));
        long failed = grade.results().stream().filter(result -> !result.passed()).count();
        text.append(failed == 0 ? " — every graded test passed." : " — " + failed + " graded test(s) failed.");
        for (String note : grade.notes()) {
            text.append('\n').append(note);
        }
        return text.toString();
    }

    /** Returns a readable report: the score, a line per test, and the failures with their messages. */
    static String summary(Grade grade) {
        StringBuilder md = new StringBuilder();
        md.append("# Grade for ").append(grade.submission()).append("\n\n");
        md.append(String.format(Locale.ROOT, "**Score: %d / %d**%n%n", grade.score(), grade.maxScore()));
        md.append(subtotals(grade)).append("\n\n");
        if (!grade.compiled()) {
            md.append("Compilation failed: no test could run. Fix these errors first:\n\n```\n")
                    .append(grade.compilerOutput()).append("```\n");
            return md.toString();
        }
        for (String note : grade.notes()) {
            md.append("> ").append(note).append("\n");
        }
        if (!grade.notes().isEmpty()) {
            md.append('\n');
        }
        md.append("| | Test | Points | Tags |\n|---|---|---|---|\n");
        for (TestResult result : grade.results()) {
            md.append("| ").append(result.passed() ? "✅" : "❌").append(" | ")
                    .append(cell(result.test().name())).append(" | ")
                    .append(result.score()).append('/').append(result.test().points()).append(" | ")
                    .append(String.join(", ", result.tags())).append(" |\n");
        }
        List<TestResult> failures = grade.results().stream().filter(result -> !result.passed()).toList();
        if (!failures.isEmpty()) {
            md.append("\n## What to fix\n");
            for (TestResult failure : failures) {
                md.append("\n### ").append(failure.test().name()).append("\n\n```\n")
                        .append(failure.message().strip()).append("\n```\n");
            }
        }
        md.append(String.format(Locale.ROOT, "%nGraded in %.1f s.%n", grade.seconds()));
        return md.toString();
    }

    /** Returns the core's and the extension's subtotals, in one line. */
    static String subtotals(Grade grade) {
        String extension = grade.extensionMaxScore() == 0 ? "not graded"
                : String.format(Locale.ROOT, "%d / %d", grade.extensionScore(), grade.extensionMaxScore());
        return String.format(Locale.ROOT, "Core (Parts 1–3): %d / %d · Extension (Part 4): %s",
                grade.coreScore(), grade.coreMaxScore(), extension);
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    private static void writeJunitXml(Grade grade, Path dir) throws IOException {
        Map<String, List<TestResult>> byClass = new TreeMap<>();
        for (TestResult result : grade.results()) {
            byClass.computeIfAbsent(result.test().className(), name -> new ArrayList<>()).add(result);
        }
        for (Map.Entry<String, List<TestResult>> entry : byClass.entrySet()) {
            List<TestResult> results = entry.getValue();
            long failures = results.stream().filter(result -> !result.passed()).count();
            double time = results.stream().mapToLong(result -> Math.max(0, result.millis())).sum() / 1000.0;
            StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
            xml.append(String.format(Locale.ROOT, "<testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"0\" time=\"%.3f\">%n",
                    xml(entry.getKey()), results.size(), failures, time));
            for (TestResult result : results) {
                xml.append(String.format(Locale.ROOT, "  <testcase name=\"%s\" classname=\"%s\" time=\"%.3f\"",
                        xml(result.test().displayName()), xml(entry.getKey()), Math.max(0, result.millis()) / 1000.0));
                if (result.passed()) {
                    xml.append("/>\n");
                } else {
                    String firstLine = result.message().lines().findFirst().orElse("failed");
                    xml.append(">\n    <failure message=\"").append(xml(firstLine)).append("\">")
                            .append(xml(result.message())).append("</failure>\n  </testcase>\n");
                }
            }
            xml.append("</testsuite>\n");
            Files.writeString(dir.resolve("TEST-" + entry.getKey() + ".xml"), xml, StandardCharsets.UTF_8);
        }
    }

    private static String xml(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                default -> {
                    if (c >= 0x20 || c == '\n' || c == '\t' || c == '\r') {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
