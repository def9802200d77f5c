package fencing.grader.pipeline;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Runs a submission's tests in their groups ({@link TestJvms}) side by side, so that one group's waits (a lease that must
 * expire, a snapshot restore, a sink process held mid-write) overlap another's; within each group the tests run one at a
 * time, in the same order whatever the machine.
 *
 * <p>First, where the submission keeps no state of its own in static fields ({@link StaticState}) that the groups could
 * share, all groups run in one JVM, each on a thread of its own. A group whose every test ended there keeps its results.
 * If that JVM ends or must be stopped before then (an exit, an endless loop, a deadlock, a crash), its CPU and time
 * cannot be put down to one test, so each group it had not finished runs again from its start in a JVM of its own
 * ({@link ForkedRun#run}), where every limit is the test's own and a JVM's end is the running test's. A submission that
 * keeps such state runs that way from the start. Either way a group's tests run in a JVM where only that group's tests
 * touch the submission's state, in the same order: which way a group ran changes how long a grade takes, never a verdict.
 */
final class SideBySide {

    /** The name of the run of all groups in one JVM: not a group's name, which is lower-case letters and hyphens. */
    static final String TOGETHER = "all";

    /** How many groups' JVMs run at once when the groups run each in a JVM of its own. */
    private static final int FALLBACK_JVMS = 2;

    /**
     * What the runs gave together.
     *
     * @param results    one result per test, in the order of the tests
     * @param notes      each run's notes, each said once, in the order of the runs
     * @param lastOutput the last lines each JVM's tests printed, under the JVM's name when more than one printed
     */
    record Outcome(List<TestResult> results, List<String> notes, String lastOutput) {
    }

    private SideBySide() {
    }

    /**
     * Runs {@code tests}, all groups in one JVM first when {@code together}, then each group not finished there in a JVM
     * of its own, every one in the {@link ForkedRun} that {@code runFor} makes for its name ({@link #TOGETHER} or a
     * group's); waits for every run to end, even when one fails, so that no JVM outlives the grade.
     *
     * @param runLimit the limit of the whole run, for all JVMs together
     * @throws IOException, InterruptedException or the unchecked exception of the first run that failed, in the order of
     *     the groups ({@link ForkedRun#run})
     */
    static Outcome run(List<TestCase> tests, boolean together, java.time.Duration runLimit, Function<String, ForkedRun> runFor)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + runLimit.toNanos();
        Map<String, List<TestCase>> byGroup = TestJvms.of(tests);
        Map<String, ForkedRun> runs = new LinkedHashMap<>();
        Map<String, List<TestResult>> results = new HashMap<>();
        List<String> said = new ArrayList<>();
        if (together && byGroup.size() > 1) {
            ForkedRun shared = runFor.apply(TOGETHER);
            runs.put(TOGETHER, shared);
            results.putAll(shared.runTogether(byGroup, deadline));
            if (results.size() < byGroup.size()) {
                said.add("The test JVM that ran the groups of tests side by side ended or was stopped before they had"
                        + " finished; each group it had not finished was run again from its start in a JVM of its own.");
            }
        }
        Map<String, List<TestCase>> left = new LinkedHashMap<>(byGroup);
        left.keySet().removeAll(results.keySet());
        left.keySet().forEach(group -> runs.put(group, runFor.apply(group)));
        if (left.size() == 1) {
            String only = left.keySet().iterator().next();
            results.put(only, runs.get(only).run(left.get(only), deadline));
        } else if (!left.isEmpty()) {
            results.putAll(inParallel(left, runs, deadline));
        }
        Map<String, TestResult> byId = new HashMap<>();
        results.values().forEach(list -> list.forEach(result -> byId.put(result.test().uniqueId(), result)));
        Set<String> notes = new LinkedHashSet<>(said);
        runs.values().forEach(run -> notes.addAll(run.notes()));
        return new Outcome(tests.stream().map(test -> byId.get(test.uniqueId())).toList(), new ArrayList<>(notes), output(runs));
    }

    private static Map<String, List<TestResult>> inParallel(Map<String, List<TestCase>> byJvm, Map<String, ForkedRun> runs,
                                                           long deadline) throws IOException, InterruptedException {
        // At most two JVMs at a time: a grade that falls back to them is already costly, and the machine may grade others.
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(FALLBACK_JVMS, byJvm.size()), task -> {
            Thread thread = new Thread(task, "test JVM run");
            thread.setDaemon(true);
            return thread;
        });
        try {
            Map<String, Future<List<TestResult>>> started = new LinkedHashMap<>();
            byJvm.forEach((jvm, tests) -> started.put(jvm, pool.submit(() -> runs.get(jvm).run(tests, deadline))));
            Map<String, List<TestResult>> results = new HashMap<>();
            Throwable first = null;
            for (Map.Entry<String, Future<List<TestResult>>> run : started.entrySet()) {
                try {
                    results.put(run.getKey(), run.getValue().get());
                } catch (ExecutionException e) {
                    first = first == null ? e.getCause() : first;
                }
            }
            if (first instanceof IOException io) {
                throw io;
            }
            if (first instanceof InterruptedException interrupted) {
                throw interrupted;
            }
            if (first instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (first instanceof Error error) {
                throw error;
            }
            return results;
        } finally {
            // Reached early only when this thread is interrupted: each run then stops its JVM on its way out.
            pool.shutdownNow();
        }
    }

    private static String output(Map<String, ForkedRun> runs) {
        List<Map.Entry<String, ForkedRun>> printed = runs.entrySet().stream()
                .filter(run -> !run.getValue().lastOutput().isBlank()).toList();
        if (printed.size() <= 1) {
            return printed.isEmpty() ? "" : printed.get(0).getValue().lastOutput();
        }
        StringBuilder text = new StringBuilder();
        printed.forEach(run -> text.append(run.getKey().equals(TOGETHER) ? "--- the test JVM of all groups ---\n"
                        : "--- the test JVM of the group " + run.getKey() + " ---\n")
                .append(run.getValue().lastOutput().stripTrailing()).append('\n'));
        return text.toString();
    }
}
