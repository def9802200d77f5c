package fencing.grader.pipeline;

import java.util.List;

/**
 * The outcome of one test as the grading process saw it.
 *
 * @param test     the test
 * @param passed   whether it passed
 * @param message  what a student can act on when it failed; empty when it passed
 * @param millis   how long it ran, or -1 when it never finished
 */
public record TestResult(TestCase test, boolean passed, String message, long millis) {

    /** Returns the points this result earns. */
    public int score() {
        return passed ? test.points() : 0;
    }

    /** The tags of the test. */
    public List<String> tags() {
        return test.tags();
    }
}
