package fencing.grader.pipeline;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs a submission's tests in their groups ({@link TestGroups}) side by side in one JVM, so that one group's waits (a lease
 * that must expire, a snapshot restore, a sink process held mid-write) overlap another's; within each group the tests run
 * one at a time, in the same order whatever the machine.
 *
 * <p>A group whose every test ended in that JVM keeps its results. If the JVM ends or must be stopped before then (an
 * exit, an endless loop, a deadlock, a crash), its CPU and time cannot be put down to one test, so the groups it had not
 * finished run again from their start in a JVM that runs one test at a time ({@link ForkedRun#run}), where every limit is
 * the test's own and a JVM's end is the running test's. A submission that keeps state in static fields ({@link
 * StaticState}), which one group's tests could leave behind for another's, runs that way from the start. So a group's
 * tests always run in the same order, and where the submission could keep state between groups, always after the same
 * groups: which way they ran changes how long a grade takes, never a verdict.
 *
 * <p>A group with a test that failed side by side while the machine kept the JVM or etcd waiting for a CPU (a call's own
 * time bound, the submission's, may have run out for that alone) runs again the same way, and the verdicts are that run's.
 */
final class SideBySide {

    /**
     * The system property of the grader's JVM that turns the groups side by side off ({@code false}): every grade then
     * runs its tests one at a time, as a submission with static state always does. On by default: no hidden test's
     * verdict waits on the clock but the one lease expiry, which takes a longer lease when the machine let the short one
     * run out mid-acquire, so how long a test is kept waiting for a CPU changes a grade's time, never a verdict.
     */
    static final String PROPERTY = "fencing.grader.side-by-side";

    /** The name of the JVM that runs the groups side by side: not a group's name, which is lower-case letters and hyphens. */
    static final String TOGETHER = "side-by-side";

    /** The name of the JVM (or JVMs, after an exit) that run one test at a time. */
    static final String IN_TURN = "in-turn";

    /**
     * What the runs gave together.
     *
     * @param results    one result per test, in the order of the tests
     * @param notes      each run's notes, in the order of the runs
     * @param lastOutput the last lines the tests printed, under each run's name when both printed
     */
    record Outcome(List<TestResult> results, List<String> notes, String lastOutput) {
    }

    private SideBySide() {
    }

    /** Returns whether the groups run side by side: unless the grader's JVM was told otherwise ({@link #PROPERTY}). */
    static boolean enabled() {
        return Boolean.parseBoolean(System.getProperty(PROPERTY, "true"));
    }

    /**
     * Runs {@code tests}: when {@code together}, their groups side by side in the {@link ForkedRun} that {@code runFor}
     * makes for {@link #TOGETHER}, then, or else, every test of a group not finished there in the one it makes for
     * {@link #IN_TURN}.
     *
     * @param runLimit the limit of the whole run, for both together
     * @throws IOException, InterruptedException or an unchecked exception of {@link ForkedRun}
     */
    static Outcome run(List<TestCase> tests, boolean together, Duration runLimit, Function<String, ForkedRun> runFor)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + runLimit.toNanos();
        Map<String, List<TestCase>> byGroup = TestGroups.of(tests);
        Map<String, TestResult> byId = new HashMap<>();
        List<String> notes = new ArrayList<>();
        Map<String, String> outputs = new java.util.LinkedHashMap<>();
        List<TestCase> left = tests;
        if (together && byGroup.size() > 1) {
            ForkedRun sideBySide = runFor.apply(TOGETHER);
            Map<String, List<TestResult>> finished = sideBySide.runTogether(byGroup, deadline);
            finished.values().forEach(results -> results.forEach(result -> byId.put(result.test().uniqueId(), result)));
            left = tests.stream().filter(test -> !byId.containsKey(test.uniqueId())).toList();
            notes.addAll(sideBySide.notes());
            // A group run again for a starved failure has its own note, from the run.
            if (byGroup.entrySet().stream().anyMatch(group -> !finished.containsKey(group.getKey())
                    && !sideBySide.starvedIn(group.getValue()))) {
                notes.add("The test JVM that ran the groups of tests side by side ended or was stopped before they had"
                        + " finished; the groups it had not finished were run again from their start, one test at a time.");
            }
            outputs.put(TOGETHER, sideBySide.lastOutput());
        }
        if (!left.isEmpty()) {
            ForkedRun inTurn = runFor.apply(IN_TURN);
            inTurn.run(left, deadline).forEach(result -> byId.put(result.test().uniqueId(), result));
            inTurn.notes().stream().filter(note -> !notes.contains(note)).forEach(notes::add);
            outputs.put(IN_TURN, inTurn.lastOutput());
        }
        return new Outcome(tests.stream().map(test -> byId.get(test.uniqueId())).toList(), notes, output(outputs));
    }

    /** Returns the runs' last outputs, each under its run's name when more than one printed. */
    private static String output(Map<String, String> outputs) {
        List<Map.Entry<String, String>> printed = outputs.entrySet().stream().filter(run -> !run.getValue().isBlank()).toList();
        if (printed.size() <= 1) {
            return printed.isEmpty() ? "" : printed.get(0).getValue();
        }
        StringBuilder text = new StringBuilder();
        printed.forEach(run -> text.append("--- the test JVM ")
                .append(run.getKey().equals(TOGETHER) ? "of the groups side by side" : "of one test at a time").append(" ---\n")
                .append(run.getValue().stripTrailing()).append('\n'));
        return text.toString();
    }
}
