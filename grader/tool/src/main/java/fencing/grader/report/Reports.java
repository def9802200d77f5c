package fencing.grader.report;

import fencing.grader.files.ResultsFile;
import fencing.grader.pipeline.Explanation;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestResult;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Writes a grade's reports: {@code results.json} (Gradescope's format, the kit's own), the student's {@code summary.md},
 * the staff's {@code staff-notes.md}, JUnit XML, and the result files of the platforms asked for ({@link Platform}).
 *
 * <p>Each reader gets a file of their own, so that no template has to cut one file in two: {@link #SUMMARY} holds only
 * what a student may read now, and {@link #STAFF_NOTES} what only staff may read.
 */
public final class Reports {

    /** The student's report: the score, a line per test, and the failures a student may read now. */
    public static final String SUMMARY = "summary.md";
    /** The staff's report: the notes only staff may read and the explanations with the rubric. */
    public static final String STAFF_NOTES = "staff-notes.md";
    /** The heading that opens {@link #STAFF_NOTES}; nothing a student reads holds it. */
    public static final String STAFF_HEADING = "# For staff: notes and explanations to read";

    private static final XMLOutputFactory XML = XMLOutputFactory.newFactory();

    private Reports() {
    }

    /** Writes every report for {@code grade} into {@code out}, each test shown as {@code policy} says. */
    public static void write(Grade grade, Path out, GradingPolicy policy) throws IOException {
        write(grade, out, policy, Set.of(), Map.of());
    }

    /**
     * Writes every report for {@code grade} into {@code out}, and each of {@code platforms}' own result files into a
     * folder named after the platform, unless grading could not run.
     *
     * @param environment the variables a platform's file reads (Classroom 50's identity of the submission)
     */
    public static void write(Grade grade, Path out, GradingPolicy policy, Set<Platform> platforms, Map<String, String> environment)
            throws IOException {
        Files.createDirectories(out);
        GradescopeResults.of(grade, policy).write(out.resolve(ResultsFile.FILE));
        Files.writeString(out.resolve(SUMMARY), summary(grade, policy), StandardCharsets.UTF_8);
        Files.writeString(out.resolve(STAFF_NOTES), staffNotes(grade), StandardCharsets.UTF_8);
        if (grade.scored()) {
            writeJunitXml(grade, Files.createDirectories(out.resolve("junit")));
            for (Platform platform : platforms) {
                platform.write(grade, policy, Files.createDirectories(platform.file(out).getParent()), environment);
            }
        }
    }

    /**
     * Returns the student's report ({@link #SUMMARY}), what a student may read before the due date: the score, a line
     * per test, and the failures with their messages; a test the policy does not show yet appears by its property and
     * points only, and nothing for staff is in it. Each failure's message and then the whole are cut as a platform's
     * result file cuts them ({@link ReportText}), so that it fits every page that shows it whole, Classroom 50's
     * Release body (GitHub takes at most 125,000 characters) among them, whatever the submission prints.
     */
    public static String summary(Grade grade, GradingPolicy policy) {
        return ReportText.output(summaryText(grade, policy));
    }

    private static String summaryText(Grade grade, GradingPolicy policy) {
        StringBuilder md = new StringBuilder();
        md.append("# Grade for ").append(grade.submission()).append("\n\n");
        if (grade.status() == Grade.Status.COULD_NOT_RUN) {
            md.append("**No score: grading could not run.** This is the grader's failure, not the submission's;"
                    + " grade it again once the cause is fixed:\n\n```\n").append(grade.reason()).append("\n```\n");
            return md.toString();
        }
        md.append(String.format(Locale.ROOT, "**Score: %d / %d**%n%n", grade.score(), grade.maxScore()));
        if (grade.status() == Grade.Status.NOT_GRADED) {
            md.append("No test ran: the submission is not fit to grade.\n\n```\n").append(grade.reason()).append("\n```\n");
            return md.toString();
        }
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
                    .append(cell(ReportText.shownName(result, policy))).append(" | ")
                    .append(result.score()).append('/').append(result.test().points()).append(" | ")
                    .append(String.join(", ", result.tags())).append(" |\n");
        }
        List<TestResult> failures = grade.results().stream()
                .filter(result -> !result.passed() && policy.visibility(result.test()).shownNow()).toList();
        if (!failures.isEmpty()) {
            md.append("\n## What to fix\n");
            for (TestResult failure : failures) {
                md.append("\n### ").append(failure.test().name()).append("\n\n```\n")
                        .append(ReportText.testOutput(failure.message().strip())).append("\n```\n");
            }
        }
        md.append(String.format(Locale.ROOT, "%nGraded in %.1f s.%n", grade.seconds()));
        return md.toString();
    }

    /**
     * Returns the staff's report ({@link #STAFF_NOTES}): their notes (whether the predictions were committed first), and
     * the explanations of {@code ANSWERS.md} with the rubric, or a line saying there is nothing to read.
     */
    public static String staffNotes(Grade grade) {
        StringBuilder md = new StringBuilder(STAFF_HEADING).append("\n\n");
        md.append("Grade of ").append(grade.submission()).append(": for staff only; the student's report is ").append(SUMMARY)
                .append(".\n\n");
        if (grade.explanations().isEmpty() && grade.staffNotes().isEmpty()) {
            return md.append("Nothing to read: no note for staff and no explanation.\n").toString();
        }
        for (String note : grade.staffNotes()) {
            md.append("> ").append(note).append("\n\n");
        }
        if (!grade.explanations().isEmpty()) {
            md.append(grade.answersToRead()).append(" of ").append(grade.explanations().size())
                    .append(" explanations in ANSWERS.md wait to be read; they carry no points until a person grades them.\n");
        }
        for (Explanation explanation : grade.explanations()) {
            md.append("\n## Question ").append(explanation.number()).append(": ").append(explanation.question())
                    .append("\n\n").append(quoted(ReportText.forStaff(explanation))).append('\n');
        }
        return md.toString();
    }

    /** Returns the core's and the extension's subtotals, in one line. */
    static String subtotals(Grade grade) {
        String extension = grade.extensionMaxScore() == 0 ? "not graded"
                : String.format(Locale.ROOT, "%d / %d", grade.extensionScore(), grade.extensionMaxScore());
        return String.format(Locale.ROOT, "Core (Parts 1–3): %d / %d · Extension tasks: %s",
                grade.coreScore(), grade.coreMaxScore(), extension);
    }

    private static String quoted(String text) {
        return text.lines().map(line -> line.isBlank() ? ">" : "> " + line).reduce((a, b) -> a + "\n" + b).orElse(">");
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    /** Writes one JUnit XML report per test class, in the layout CI servers read from Surefire. */
    private static void writeJunitXml(Grade grade, Path dir) throws IOException {
        Map<String, List<TestResult>> byClass = new TreeMap<>();
        for (TestResult result : grade.results()) {
            byClass.computeIfAbsent(result.test().className(), name -> new ArrayList<>()).add(result);
        }
        for (Map.Entry<String, List<TestResult>> entry : byClass.entrySet()) {
            Path file = dir.resolve("TEST-" + entry.getKey() + ".xml");
            try (OutputStream out = Files.newOutputStream(file)) {
                XMLStreamWriter xml = XML.createXMLStreamWriter(out, "UTF-8");
                try {
                    writeSuite(xml, entry.getKey(), entry.getValue());
                } finally {
                    xml.close();
                }
            } catch (XMLStreamException e) {
                throw new IOException("could not write " + file, e);
            }
        }
    }

    private static void writeSuite(XMLStreamWriter xml, String className, List<TestResult> results) throws XMLStreamException {
        long failures = results.stream().filter(result -> !result.passed()).count();
        long millis = results.stream().mapToLong(result -> Math.max(0, result.millis())).sum();
        xml.writeStartDocument("UTF-8", "1.0");
        xml.writeCharacters("\n");
        xml.writeStartElement("testsuite");
        xml.writeAttribute("name", legal(className));
        xml.writeAttribute("tests", Integer.toString(results.size()));
        xml.writeAttribute("failures", Long.toString(failures));
        xml.writeAttribute("errors", "0");
        xml.writeAttribute("skipped", "0");
        xml.writeAttribute("time", seconds(millis));
        for (TestResult result : results) {
            xml.writeCharacters("\n  ");
            if (result.passed()) {
                xml.writeEmptyElement("testcase");
                writeCaseAttributes(xml, result, className);
                continue;
            }
            xml.writeStartElement("testcase");
            writeCaseAttributes(xml, result, className);
            xml.writeCharacters("\n    ");
            xml.writeStartElement("failure");
            xml.writeAttribute("message", legal(result.message().isEmpty() ? "failed" : ReportText.firstLine(result.message())));
            xml.writeCharacters(legal(ReportText.testOutput(result.message())));
            xml.writeEndElement();
            xml.writeCharacters("\n  ");
            xml.writeEndElement();
        }
        xml.writeCharacters("\n");
        xml.writeEndElement();
        xml.writeCharacters("\n");
        xml.writeEndDocument();
    }

    private static void writeCaseAttributes(XMLStreamWriter xml, TestResult result, String className) throws XMLStreamException {
        xml.writeAttribute("name", legal(result.test().displayName()));
        xml.writeAttribute("classname", legal(className));
        xml.writeAttribute("time", seconds(Math.max(0, result.millis())));
    }

    private static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.3f", millis / 1000.0);
    }

    /**
     * Returns {@code text} with the characters XML 1.0 cannot hold written as {@code &#N;}, as JUnit's own
     * reports do: the writer escapes markup, but a control character would make the whole file unreadable.
     */
    private static String legal(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            boolean allowed = c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c <= 0xD7FF)
                    || (c >= 0xE000 && c <= 0xFFFD) || c >= 0x10000;
            if (allowed) {
                out.appendCodePoint(c);
            } else {
                out.append("&#").append(c).append(';');
            }
        });
        return out.toString();
    }
}
