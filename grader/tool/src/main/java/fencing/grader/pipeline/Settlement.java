package fencing.grader.pipeline;

import java.util.Optional;

/**
 * What the end of a test JVM that ran its tests one at a time settles: the test it came in fails with what happened, or,
 * in a class's set-up outside any test, that class's tests do. {@link ForkedRun} then runs the tests left in a new JVM.
 */
final class Settlement {

    private Settlement() {
    }

    /**
     * Fails the test {@code ending} came in, or the tests of the class whose set-up it came in, and returns what the
     * report's notes say of it: nothing when the JVM ended with nothing running or at the run's limit.
     *
     * @param stoppedIn  where the student's code was when the JVM was stopped for the test's limits, if a thread dump said
     * @param lastOutput the last lines the JVM printed, which say whether it ran out of memory
     */
    static Optional<String> settle(JvmWatch.Ending ending, Tally tally, Limits limits, Optional<String> stoppedIn,
                                   String lastOutput) {
        String id = ending.running();
        if (ending.kind() == JvmWatch.Kind.DONE || id == null) {
            return Optional.empty();
        }
        Limits.Test stoppedBy = limits.of(tally.test(id));
        String message = switch (ending.kind()) {
            case EXITED -> lastOutput.contains("Terminating due to java.lang.OutOfMemoryError")
                    ? "the JVM ran out of memory during the test (OutOfMemoryError) and was ended"
                    : "the JVM exited during the test (System.exit, Runtime.halt or a crash)";
            case OVER_BUDGET -> WhereItStopped.overBudget(stoppedBy, ending, stoppedIn);
            case BACKSTOP -> WhereItStopped.backstop(stoppedBy, ending, stoppedIn);
            case TIME_LIMIT -> "timed out: grading stopped at its time limit of " + limits.run().toSeconds() + " s";
            case DONE -> throw new IllegalStateException("a finished run has no test in progress");
        };
        if (ending.isTest()) {
            TestCase test = tally.failRunning(id, message);
            return ending.kind() == JvmWatch.Kind.TIME_LIMIT ? Optional.empty()
                    : Optional.of(test.name() + ": " + message + "; the tests left were run in a new JVM.");
        }
        String during = ending.kind() == JvmWatch.Kind.EXITED
                ? "the JVM exited during the set-up of this test's class, outside any test (System.exit, Runtime.halt"
                        + " or a crash in a static initializer or a @BeforeAll)"
                : "the set-up of this test's class, outside any test, " + message;
        if (tally.failClass(id, during) > 0 && ending.kind() != JvmWatch.Kind.TIME_LIMIT) {
            return Optional.of(id.substring(id.lastIndexOf(':') + 1).replace("]", "") + ": " + during
                    + "; the tests left were run in a new JVM.");
        }
        return Optional.empty();
    }
}
