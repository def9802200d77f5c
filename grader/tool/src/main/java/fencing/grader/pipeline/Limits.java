package fencing.grader.pipeline;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

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
 * <p>A property whose tests need far less can have lower limits of its own, under {@code by-tag:} ({@code quorum:
 * {test-cpu-seconds: 2, test-wall-seconds: 5}}): a test's limits are those of its main property (the first of its
 * tags), never above the section's own, so that an endless loop or a deadlock costs no more than its verdict needs.
 *
 * @param testCpu  the CPU one test may use
 * @param testWall the wall-clock backstop of one test
 * @param run      the wall-clock limit of one submission's whole run
 * @param byTag    lower limits of the tests of some properties, by tag
 */
public record Limits(Duration testCpu, Duration testWall, Duration run, Map<String, Test> byTag) {

    /**
     * What one test may use.
     *
     * @param cpu  its CPU budget
     * @param wall its wall-clock backstop
     */
    public record Test(Duration cpu, Duration wall) {
    }

    /** Limits with the same for every test. */
    public Limits(Duration testCpu, Duration testWall, Duration run) {
        this(testCpu, testWall, run, Map.of());
    }

    /** The prefix of the system properties that override a limit. */
    public static final String PROPERTY_PREFIX = "fencing.grader.limits.";

    /** Checks that the limits can be met together. */
    public Limits {
        if (testCpu.isNegative() || testCpu.isZero() || testWall.compareTo(testCpu) < 0 || run.compareTo(testWall) < 0) {
            throw new IllegalArgumentException("limits: test-cpu-seconds must be above 0, test-wall-seconds at least"
                    + " test-cpu-seconds and run-seconds at least test-wall-seconds; got " + testCpu.toSeconds() + ", "
                    + testWall.toSeconds() + " and " + run.toSeconds());
        }
        byTag = Map.copyOf(byTag);
    }

    /** Returns the limits of any test not given its own: the section's. */
    public Test test() {
        return new Test(testCpu, testWall);
    }

    /**
     * Returns the limits of {@code test}: its main property's, where that has its own, each at most the section's (a
     * system property that lowers the section's lowers every test's); the section's for a class's set-up ({@code null}).
     */
    public Test of(TestCase test) {
        Test own = test == null || test.tags().isEmpty() ? null : byTag.get(test.tags().get(0));
        if (own == null) {
            return test();
        }
        Duration cpu = own.cpu().compareTo(testCpu) < 0 ? own.cpu() : testCpu;
        Duration wall = own.wall().compareTo(testWall) < 0 ? own.wall() : testWall;
        return new Test(cpu, wall.compareTo(cpu) < 0 ? cpu : wall);
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
        Duration cpu = seconds("test-cpu-seconds", section.testCpuSeconds());
        Duration wall = seconds("test-wall-seconds", section.testWallSeconds());
        Map<String, Test> byTag = new LinkedHashMap<>();
        if (section.byTag() != null) {
            // Held to the file's own section: a system property that lowers it lowers every test's limits instead (of).
            Duration fileCpu = section.testCpuSeconds() == null ? cpu : Duration.ofSeconds(section.testCpuSeconds());
            Duration fileWall = section.testWallSeconds() == null ? wall : Duration.ofSeconds(section.testWallSeconds());
            section.byTag().forEach((tag, own) -> byTag.put(tag, own(tag, own, fileCpu, fileWall)));
        }
        return new Limits(cpu, wall, seconds("run-seconds", section.runSeconds()), byTag);
    }

    /** Reads one property's own limits: each a whole number of seconds, at most the section's, the wall at least the CPU. */
    private static Test own(String tag, PolicyFile.TagLimits own, Duration cpu, Duration wall) {
        String where = "limits.by-tag." + tag;
        if (own == null || own.testCpuSeconds() == null && own.testWallSeconds() == null) {
            throw new IllegalArgumentException(where + " must give test-cpu-seconds, test-wall-seconds or both");
        }
        Duration ownCpu = own.testCpuSeconds() == null ? cpu : ownSeconds(where + ".test-cpu-seconds", own.testCpuSeconds(),
                "limits.test-cpu-seconds", cpu);
        Duration ownWall = own.testWallSeconds() == null ? wall : ownSeconds(where + ".test-wall-seconds", own.testWallSeconds(),
                "limits.test-wall-seconds", wall);
        if (ownWall.compareTo(ownCpu) < 0) {
            throw new IllegalArgumentException(where + ": test-wall-seconds must be at least test-cpu-seconds; got "
                    + ownWall.toSeconds() + " and " + ownCpu.toSeconds());
        }
        return new Test(ownCpu, ownWall);
    }

    private static Duration ownSeconds(String name, int value, String sectionName, Duration section) {
        if (value < 1 || value > section.toSeconds()) {
            throw new IllegalArgumentException(name + " must be a whole number of seconds from 1 to " + sectionName + " ("
                    + section.toSeconds() + "); got " + value);
        }
        return Duration.ofSeconds(value);
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
