package fencing.grader.pipeline;

import java.time.Duration;

/**
 * The limits of a grading run, from the {@code limits:} section of the grading policy: the one place they are set.
 *
 * <p>A test's limit is the work its JVM does for it, not the time it takes: {@code test-cpu-seconds} of CPU, counted on
 * every thread of the test JVM while the test runs (tests run one at a time in their JVM, so work handed to another
 * thread or a pool counts too, and so does the JVM's own compiling and collecting for that test). {@code
 * test-wall-seconds} is a backstop for what uses no CPU at all (a deadlock, a wait that never ends); a test it stops
 * before its CPU budget ran out is run again, alone, in a fresh JVM, since the machine may have starved it. {@code
 * run-seconds} bounds one submission's whole run. Each can be overridden by the system property {@code
 * fencing.grader.limits.NAME} (for example {@code -Dfencing.grader.limits.test-cpu-seconds=20}).
 *
 * @param testCpu  the CPU one test may use
 * @param testWall the wall-clock backstop of one test
 * @param run      the wall-clock limit of one submission's whole run
 */
public record Limits(Duration testCpu, Duration testWall, Duration run) {

    /** The prefix of the system properties that override a limit. */
    public static final String PROPERTY_PREFIX = "fencing.grader.limits.";

    /** Checks that the limits can be met together. */
    public Limits {
        if (testCpu.isNegative() || testCpu.isZero() || testWall.compareTo(testCpu) < 0 || run.compareTo(testWall) < 0) {
            throw new IllegalArgumentException("limits: test-cpu-seconds must be above 0, test-wall-seconds at least"
                    + " test-cpu-seconds and run-seconds at least test-wall-seconds; got " + testCpu.toSeconds() + ", "
                    + testWall.toSeconds() + " and " + run.toSeconds());
        }
    }

    /**
     * Reads the policy's {@code limits:} section, with the property overrides.
     *
     * @throws IllegalArgumentException if the section is missing, or a limit is not a whole number of seconds, 1 or more
     */
    static Limits read(PolicyFile.LimitsSection section) {
        if (section == null) {
            throw new IllegalArgumentException("no 'limits:' section (test-cpu-seconds, test-wall-seconds, run-seconds)");
        }
        return new Limits(seconds("test-cpu-seconds", section.testCpuSeconds()), seconds("test-wall-seconds", section.testWallSeconds()),
                seconds("run-seconds", section.runSeconds()));
    }

    private static Duration seconds(String name, Integer inFile) {
        String override = System.getProperty(PROPERTY_PREFIX + name);
        String where = override != null ? "the system property " + PROPERTY_PREFIX + name : "limits." + name;
        String text = override != null ? override.strip() : inFile == null ? null : inFile.toString();
        if (text == null || !text.matches("[0-9]{1,6}") || Integer.parseInt(text) < 1) {
            throw new IllegalArgumentException(where + " must be a whole number of seconds, 1 or more; got "
                    + (override != null ? "'" + override + "'" : inFile == null ? "nothing" : inFile.toString()));
        }
        return Duration.ofSeconds(Integer.parseInt(text));
    }
}
