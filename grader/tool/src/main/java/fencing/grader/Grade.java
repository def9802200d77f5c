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
 * @param explanations the open explanations of {@code ANSWERS.md}, for a person to read
 */
public record Grade(String submission, boolean compiled, String compilerOutput, List<TestResult> results,
                    List<String> notes, String lastOutput, double seconds, List<Explanation> explanations) {

    /** A grade without explanations to read. */
    public Grade(String submission, boolean compiled, String compilerOutput, List<TestResult> results,
                 List<String> notes, String lastOutput, double seconds) {
        this(submission, compiled, compilerOutput, results, notes, lastOutput, seconds, List.of());
    }

    /** Returns how many explanations were written and wait for a person to read them. */
    public long answersToRead() {
        return explanations.stream().filter(Explanation::written).count();
    }

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
}
