package fencing.grader;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.grader.files.BatchFolder;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.TestResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a batch decided about each student: the grade's status and every test's verdict, read from the batch's
 * {@code gradebook.csv} and each student's {@code results.json}, as an instructor would read them.
 *
 * @param students each student's verdicts, by folder name, in the gradebook's order
 */
record Verdicts(Map<String, Student> students) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One student's verdicts.
     *
     * @param status the gradebook's status: {@code graded}, or the first line of why not
     * @param tests  each test's name, whether it passed and what it said, in the report's order
     */
    record Student(String status, List<Test> tests) {

        /** Whether grading ran for this student (graded, or refused as not fit to grade). */
        boolean scored() {
            return !status.startsWith("grading could not run");
        }
    }

    /**
     * One test's verdict.
     *
     * @param name   the name a student reads
     * @param passed whether it passed
     * @param tags   the properties it grades
     * @param output what it said
     */
    record Test(String name, boolean passed, List<String> tags, String output) {
    }

    /** Reads the verdicts of the batch written to {@code out}. */
    static Verdicts read(Path out) throws IOException {
        Map<String, Student> students = new LinkedHashMap<>();
        List<String> rows = Files.readAllLines(out.resolve("gradebook.csv"));
        for (String row : rows.subList(1, rows.size())) {
            List<String> fields = CsvLine.split(row);
            String student = fields.get(0);
            students.put(student, new Student(fields.get(4), tests(out.resolve(BatchFolder.reportFolder(student)).resolve("results.json"))));
        }
        return new Verdicts(students);
    }

    /** Reads each test's verdict from one grade's {@code results.json}. */
    static List<Test> tests(Path results) {
        try {
            List<Test> tests = new ArrayList<>();
            for (JsonNode test : JSON.readTree(results.toFile()).path("tests")) {
                List<String> tags = new ArrayList<>();
                test.path("tags").forEach(tag -> tags.add(tag.asText()));
                tests.add(new Test(test.path("name").asText(), test.path("status").asText().equals("passed"), tags,
                        test.path("output").asText()));
            }
            return tests;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + results, e);
        }
    }

    /**
     * Lists every way the grade {@code again} of the submission {@code name} differs from {@code first}: its status, and
     * each test's pass or fail, naming the test; empty when they are the same.
     */
    static List<String> differences(String name, Grade first, Grade again) {
        List<String> differences = new ArrayList<>();
        if (first.status() != again.status()) {
            differences.add(name + ": status " + again.status() + " (" + again.reason() + "), first " + first.status());
        }
        Map<String, TestResult> seen = new LinkedHashMap<>();
        again.results().forEach(result -> seen.put(result.test().uniqueId(), result));
        for (TestResult result : first.results()) {
            TestResult other = seen.get(result.test().uniqueId());
            if (other == null) {
                differences.add(name + ": " + result.test().name() + ": missing");
            } else if (other.passed() != result.passed()) {
                differences.add(name + ": " + result.test().name() + ": " + (other.passed() ? "passed" : "failed: " + other.message())
                        + " the second time, " + (result.passed() ? "passed" : "failed: " + result.message()) + " the first");
            }
        }
        return differences;
    }

    /**
     * Lists every way {@code other} differs from these verdicts, each naming the student and the test; empty when they
     * are the same.
     *
     * @param couldNotRunAllowed whether a student whose grading could not run in {@code other} counts as agreeing
     */
    List<String> differences(Verdicts other, boolean couldNotRunAllowed) {
        List<String> differences = new ArrayList<>();
        if (!other.students.keySet().equals(students.keySet())) {
            differences.add("students graded: " + other.students.keySet() + ", expected " + students.keySet());
        }
        students.forEach((name, expected) -> {
            Student actual = other.students.get(name);
            if (actual == null) {
                return;
            }
            if (couldNotRunAllowed && !actual.scored() && expected.scored()) {
                return;
            }
            if (!actual.status().equals(expected.status())) {
                differences.add(name + ": status '" + actual.status() + "', expected '" + expected.status() + "'");
                return;
            }
            Map<String, Test> byName = new LinkedHashMap<>();
            actual.tests().forEach(test -> byName.put(test.name(), test));
            for (Test test : expected.tests()) {
                Test seen = byName.get(test.name());
                if (seen == null) {
                    differences.add(name + ": " + test.name() + ": missing");
                } else if (seen.passed() != test.passed()) {
                    differences.add(name + ": " + test.name() + ": " + (seen.passed() ? "passed" : "failed") + " here, "
                            + (test.passed() ? "passed" : "failed") + " in the reference" + (seen.passed() ? ""
                            : " (here it said: " + seen.output().lines().findFirst().orElse("") + ")"));
                }
            }
        });
        return differences;
    }
}
