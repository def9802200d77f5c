package fencing.grader;

import java.util.List;

/**
 * A submission's grade: every test's result, or the reason nothing could run.
 *
 * @param submission  the submission's name
 * @param compiled    whether the submission compiled
 * @param compilerOutput javac's diagnostics when it did not
 * @param results     one result per test
 * @param notes       what happened during grading, in words a student understands
 * @param lastOutput  the last lines the tests printed
 * @param seconds     how long grading took
 */
public record Grade(String submission, boolean compiled, String compilerOutput, List<TestResult> results,
                    List<String> notes, String lastOutput, double seconds) {

    /** Returns the points earned. */
    public int score() {
        return results.stream().mapToInt(TestResult::score).sum();
    }

    /** Returns the points available. */
    public int maxScore() {
        return results.stream().mapToInt(result -> result.test().points()).sum();
    }

    /** Returns the tags of failed tests, sorted, without duplicates. */
    public List<String> failedTags() {
        return results.stream().filter(result -> !result.passed())
                .flatMap(result -> result.tags().stream()).distinct().sorted().toList();
    }

    /** Returns the points earned on the core (every test not tagged {@value TestSuite#EXTENSION_TAG}). */
    public int coreScore() {
        return results.stream().filter(result -> !isExtension(result)).mapToInt(TestResult::score).sum();
    }

    /** Returns the points available on the core. */
    public int coreMaxScore() {
        return results.stream().filter(result -> !isExtension(result)).mapToInt(result -> result.test().points()).sum();
    }

    /** Returns the points earned on the extension tasks. */
    public int extensionScore() {
        return results.stream().filter(Grade::isExtension).mapToInt(TestResult::score).sum();
    }

    /** Returns the points available on the extension tasks; 0 when they were not graded. */
    public int extensionMaxScore() {
        return results.stream().filter(Grade::isExtension).mapToInt(result -> result.test().points()).sum();
    }

    private static boolean isExtension(TestResult result) {
        return result.tags().contains(TestSuite.EXTENSION_TAG);
    }
}
