package fencing.grader;

import fencing.grader.files.BatchFolder;
import fencing.grader.files.GradeStatus;
import fencing.grader.files.GradebookRow;
import fencing.grader.files.ResultsFile;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.TestResult;
import java.io.IOException;
import java.io.UncheckedIOException;
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

    /**
     * One student's verdicts.
     *
     * @param row   the student's row of the gradebook
     * @param tests each test's name, whether it passed, its tags and what it said, in the report's order
     */
    record Student(GradebookRow row, List<ResultsFile.Test> tests) {

        /** Returns the gradebook's status: {@code graded}, or the first line of why not. */
        String status() {
            return row.statusLine();
        }

        /** Whether grading ran for this student (graded, or refused as not fit to grade). */
        boolean scored() {
            return row.status() != GradeStatus.COULD_NOT_RUN;
        }
    }

    /** Reads the verdicts of the batch written to {@code out}. */
    static Verdicts read(Path out) throws IOException {
        Map<String, Student> students = new LinkedHashMap<>();
        for (GradebookRow row : GradebookRow.read(out.resolve("gradebook.csv"))) {
            Path results = out.resolve(BatchFolder.reportFolder(row.student())).resolve(ResultsFile.FILE);
            students.put(row.student(), new Student(row, tests(results)));
        }
        return new Verdicts(students);
    }

    /** Reads each test's verdict from one grade's {@code results.json}. */
    static List<ResultsFile.Test> tests(Path results) {
        try {
            return ResultsFile.read(results).tests();
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
            Map<String, ResultsFile.Test> byName = new LinkedHashMap<>();
            actual.tests().forEach(test -> byName.put(test.name(), test));
            for (ResultsFile.Test test : expected.tests()) {
                ResultsFile.Test seen = byName.get(test.name());
                if (seen == null) {
                    differences.add(name + ": " + test.name() + ": missing");
                } else if (seen.passed() != test.passed()) {
                    differences.add(name + ": " + test.name() + ": " + (seen.passed() ? "passed" : "failed") + " here, "
                            + (test.passed() ? "passed" : "failed") + " in the reference" + (seen.passed() ? ""
                            : " (here it said: " + said(seen.output()) + ")"));
                }
            }
        });
        return differences;
    }

    /** The first lines of a failing test's output, enough to see its cause (a rule's message often names it on its second). */
    private static String said(String output) {
        String lines = String.join(" / ", output.lines().map(String::strip).filter(line -> !line.isEmpty()).limit(4).toList());
        return lines.length() > 800 ? lines.substring(0, 800) + " …" : lines;
    }
}
