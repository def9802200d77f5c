package fencing.grader.pipeline;

import fencing.grader.sandbox.ClassDataArchive;
import fencing.grader.sandbox.Sandbox;
import fencing.support.Channel;
import fencing.support.ChildJvm;
import fencing.support.Etcd;
import fencing.support.LoopbackBridge;
import fencing.support.Supervised;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Runs tests in a JVM of their own and turns the events it sends into results.
 *
 * <p>A test's limit is its work ({@link Limits}): a test that uses its CPU budget has its JVM stopped and fails. One that
 * reaches the wall-clock backstop fails as a deadlock or an endless wait; the backstop counts only the time no thread of
 * the JVM, or of the etcd it uses, was kept waiting for a CPU, so a busy machine that starves a test slows it down but
 * never stops it. Run side by side, a test that failed on a timeout while one of those threads waited a second or more
 * for a CPU has its group run again ({@link #starvedIn}): the submission's own bound on a call may have run out for that
 * alone. If the run's
 * own limit comes while the running test is starved ({@link JvmWatch.Ending#starved()}), the machine kept the grade from
 * finishing: the run ends with {@link Starved} (no score, never a lost point).
 *
 * <p>When a JVM dies ({@code System.exit}, {@code Runtime.halt}, a crash), the test it was running fails with what
 * happened, or, in a class's set-up outside any test, that class's tests do ({@link Settlement}); a new JVM runs the
 * tests that are left. A JVM that dies with nothing running at all cannot be blamed on one class, so from then on each
 * class runs in a JVM of its own, and each test's verdict is its own whatever the timing of the exit. The whole run has
 * a wall-clock limit; tests not run by then fail with a message that says so.
 *
 * <p>Before its first test, each JVM reports where it loaded the submission's classes from ({@link ClassOrigins}); a
 * JVM that loaded them from anywhere but the submission's class directory, or that ended before it reached the grader
 * at all, is a failure of the grader's, not the student's: the run ends with an exception that says so, and no score.
 */
final class ForkedRun {

    private static final Duration POLL = Duration.ofMillis(100);
    private static final int HEAP_MEGABYTES = 384;
    /** Loading the submission's few classes without initializing them takes milliseconds; this is for a starved CPU. */
    private static final Duration ORIGINS_LIMIT = Duration.ofSeconds(60);

    private final List<Path> classPath;
    private final Path workDir;
    private final Map<String, String> environment;
    private final Limits limits;
    private final List<String> notes = new ArrayList<>();
    private String lastOutput = "";
    /** Where the student's code was when its JVM was last stopped for a test's limits, if a thread dump said. */
    private Optional<String> stoppedIn = Optional.empty();
    /** The tests (or classes) that failed side by side while the machine starved the JVM or etcd ({@link JvmWatch#starvedFailures()}). */
    private final java.util.Set<String> starvedFailures = new java.util.LinkedHashSet<>();

    private final Sandbox sandbox;
    private final List<Path> hidden;
    private final ClassDataArchive classData;
    private final ClassOrigins origins;

    ForkedRun(List<Path> classPath, Path workDir, Map<String, String> environment, Limits limits,
              Sandbox sandbox, List<Path> hidden, ClassDataArchive classData, ClassOrigins origins) {
        this.sandbox = sandbox;
        this.origins = origins;
        this.classData = classData;
        this.hidden = hidden;
        this.classPath = classPath;
        this.workDir = workDir;
        this.environment = environment;
        this.limits = limits;
    }

    /** Notes on what happened to the JVMs, in words a student understands. */
    List<String> notes() {
        return notes;
    }

    /** The last lines the tests printed, for the report. */
    String lastOutput() {
        return lastOutput;
    }

    /**
     * Runs {@code tests} and returns one result for each, in the same order.
     *
     * @throws ClassOrigins.Misplaced if a test JVM did not load the submission's classes from its class directory
     * @throws NeverConnected if a test JVM ended before it reached the grader, so that no test could run
     * @throws Starved if the run's limit came while the machine kept the running test waiting for a CPU
     */
    List<TestResult> run(List<TestCase> tests) throws IOException, InterruptedException {
        return run(tests, System.nanoTime() + limits.run().toNanos());
    }

    /** Runs {@code tests} as {@link #run(List)} does, within the run's limit that ends at {@code deadline} ({@link System#nanoTime()}). */
    List<TestResult> run(List<TestCase> tests, long deadline) throws IOException, InterruptedException {
        Map<String, TestResult> results = new LinkedHashMap<>();
        boolean classByClass = false;
        int attempt = 0;
        while (results.size() < tests.size()) {
            List<TestCase> remaining = tests.stream().filter(test -> !results.containsKey(test.uniqueId())).toList();
            if (System.nanoTime() >= deadline) {
                remaining.forEach(test -> results.put(test.uniqueId(), new TestResult(test, false,
                        "not run: grading stopped at its time limit of " + limits.run().toSeconds() + " s", -1)));
                break;
            }
            String only = classByClass ? Tally.classOf(remaining.get(0)) : null;
            List<TestCase> batch = only == null ? remaining
                    : remaining.stream().filter(test -> Tally.classOf(test).equals(only)).toList();
            attempt++;
            Tally tally = new Tally(batch, results);
            JvmWatch.Ending ending = runOnce(batch.stream().map(TestCase::uniqueId).toList(), tally, deadline, attempt, false);
            if (ending.kind() == JvmWatch.Kind.TIME_LIMIT && ending.starved()) {
                throw new Starved(ending);
            }
            if (ending.kind() == JvmWatch.Kind.EXITED && ending.running() == null) {
                if (only != null && batch.stream().noneMatch(test -> results.containsKey(test.uniqueId()))) {
                    batch.forEach(test -> results.put(test.uniqueId(), new TestResult(test, false,
                            "not run: the test JVM ended before this test could start, with no test or class"
                                    + " set-up running (System.exit, Runtime.halt or a crash)", -1)));
                } else if (!classByClass && results.size() < tests.size()) {
                    classByClass = true;
                    notes.add("The test JVM exited between tests (System.exit, Runtime.halt or a crash); each class"
                            + " left was run in a JVM of its own.");
                }
            } else {
                Settlement.settle(ending, tally, limits, stoppedIn, lastOutput).ifPresent(notes::add);
            }
        }
        return tests.stream().map(test -> results.get(test.uniqueId())).toList();
    }

    /**
     * Runs the groups of {@code byGroup} side by side in one JVM, each group's tests one at a time, and returns the
     * results of each group whose every test ended there, in the order of that group's tests. A group left out is to be
     * run again in a JVM of its own: that JVM ended, or had to be stopped, before all its tests had ended. Since the
     * JVM's CPU and time cannot be put down to one of the tests running side by side, no test is failed here for its
     * limits, or for the JVM's end: the run of its group alone says which test it was.
     *
     * @throws ClassOrigins.Misplaced if the JVM did not load the submission's classes from its class directory
     * @throws NeverConnected if the JVM ended before it reached the grader
     * @throws Starved if the run's limit came while the machine kept the JVM's tests waiting for a CPU
     */
    Map<String, List<TestResult>> runTogether(Map<String, List<TestCase>> byGroup, long deadline)
            throws IOException, InterruptedException {
        List<TestCase> all = byGroup.values().stream().flatMap(List::stream).toList();
        Map<String, TestResult> results = new LinkedHashMap<>();
        List<String> lines = new ArrayList<>();
        byGroup.forEach((group, tests) -> tests.forEach(test -> lines.add(group + "\t" + test.uniqueId())));
        JvmWatch.Ending ending = runOnce(lines, new Tally(all, results), deadline, 1, true);
        if (ending.kind() == JvmWatch.Kind.TIME_LIMIT && ending.starved()) {
            throw new Starved(ending);
        }
        Map<String, List<TestResult>> finished = new LinkedHashMap<>();
        byGroup.forEach((group, tests) -> {
            if (tests.stream().allMatch(test -> results.containsKey(test.uniqueId())) && !starvedIn(tests)) {
                finished.put(group, tests.stream().map(test -> results.get(test.uniqueId())).toList());
            }
        });
        if (byGroup.values().stream().anyMatch(this::starvedIn)) {
            notes.add("A test failed on a timeout while the machine kept the test JVM or etcd waiting "
                    + JvmWatch.STARVED_FAILURE.toSeconds() + " s or more for a CPU; the groups of such tests were run again"
                    + " from their start, one test at a time, and their verdicts are that run's.");
        }
        return finished;
    }

    /** Whether a test of {@code tests}, or the set-up of its class, failed on a timeout while the machine starved the JVM or etcd. */
    boolean starvedIn(List<TestCase> tests) {
        return tests.stream().anyMatch(test -> starvedFailures.stream()
                .anyMatch(id -> test.uniqueId().equals(id) || test.uniqueId().startsWith(id + "/")));
    }

    private JvmWatch.Ending runOnce(List<String> lines, Tally tally, long deadline, int attempt, boolean together)
            throws IOException, InterruptedException {
        Path ids = workDir.resolve("tests-" + attempt + ".txt");
        Files.write(ids, lines, StandardCharsets.UTF_8);
        Path runDir = Files.createDirectories(workDir.resolve("run"));
        Path tmpDir = Files.createDirectories(workDir.resolve("tmp"));
        Path classList = origins.writeList(workDir.resolve("student-classes.txt"));
        sandbox.prepare(workDir, runDir, tmpDir);

        try (Channel.Listener listener = Channel.listen(); LoopbackBridge bridge = Network.bridge(sandbox, environment, listener, this::noteOnce)) {
            ChildJvm child = ChildJvm.of(ChildRunner.class)
                    .prefix(sandbox.commandPrefix(hidden, bridge != null))
                    .maxHeapMegabytes(HEAP_MEGABYTES)
                    .systemProperty("java.io.tmpdir", tmpDir.toString())
                    .systemProperty(ClassOrigins.PROPERTY, classList.toString())
                    .channel(listener)
                    .classPath(classPath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)))
                    .args(ids.toString())
                    .directory(runDir);
            environment.forEach(child::environment);
            if (bridge != null) {
                child.systemProperty(LoopbackBridge.PROPERTY, bridge.dir().toString());
            }
            classData.next(runDir).ifPresent(use -> {
                if (use.listing()) {
                    child.loadedClassList(use.file());
                } else {
                    child.sharedArchive(use.file());
                }
            });
            try (Supervised jvm = child.start("test JVM")) {
                OutputTail output = new OutputTail(jvm.output(), "test JVM output");
                JvmWatch.Ending ending = listen(listener, jvm, tally, deadline, together);
                boolean limited = ending != null && !together && ending.running() != null
                        && (ending.kind() == JvmWatch.Kind.OVER_BUDGET || ending.kind() == JvmWatch.Kind.BACKSTOP);
                stoppedIn = limited ? WhereItStopped.sample(jvm.pid(), output, ending.kind()) : Optional.empty();
                jvm.close();
                output.awaitEnd();
                lastOutput = output.text();
                if (ending == null) {
                    throw new NeverConnected("the test JVM ended before it reached the grader, so no test could run"
                            + " (nothing of the submission's had run yet); its last output: "
                            + (lastOutput.isBlank() ? "(none)" : lastOutput.strip()));
                }
                if (output.total() > 1_000_000) {
                    notes.add("The tests printed " + output.total() / 1024 + " KiB of output; only the last "
                            + lastOutput.length() / 1024 + " KiB were kept.");
                }
                return ending;
            } finally {
                classData.ended(runDir);
            }
        }
    }

    /** Notes {@code note}, once however many JVMs the run takes. */
    private void noteOnce(String note) {
        if (!notes.contains(note)) {
            notes.add(note);
        }
    }

    /** A test JVM ended before it reached the grader: the machine or the grader failed, and no test could run. */
    static final class NeverConnected extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        NeverConnected(String message) {
            super(message);
        }
    }

    /** The run could not finish because the machine kept its test waiting for a CPU: the machine's failure, not the student's. */
    static final class Starved extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Starved(JvmWatch.Ending ending) {
            super("the machine starved a test: the run reached its limit while that test, " + ending.wall().toSeconds()
                    + " s in and having used " + seconds(ending.cpu()) + " of CPU, had a thread that waited "
                    + seconds(ending.waited()) + " for a CPU it was ready to use; grade it again on a machine that is less busy");
        }
    }

    /** Returns the ending, or {@code null} if the JVM ended (or the run's limit came) before it connected. */
    private JvmWatch.Ending listen(Channel.Listener listener, Supervised jvm, Tally tally, long deadline, boolean together)
            throws IOException {
        Optional<Channel> accepted = Optional.empty();
        while (accepted.isEmpty()) {
            if (!jvm.isAlive()) {
                return null;
            }
            if (System.nanoTime() >= deadline) {
                return JvmWatch.Ending.of(JvmWatch.Kind.TIME_LIMIT);
            }
            // Polled: the JVM may still be starting, or may have died before it connected.
            accepted = listener.accept(POLL);
        }
        try (Channel events = accepted.get()) {
            requireOwnClasses(events, jvm);
            JvmWatch watch = new JvmWatch(limits, tally, jvm.pid(), Etcd.processServing(environment.get("ETCD_ENDPOINTS")),
                    deadline, together);
            try {
                return watch.follow(events);
            } finally {
                starvedFailures.addAll(watch.starvedFailures());
            }
        }
    }

    /**
     * Reads the JVM's first message, where it loaded the submission's classes from, and checks it.
     *
     * @throws ClassOrigins.Misplaced if they were not loaded from the submission's class directory
     */
    private void requireOwnClasses(Channel events, Supervised jvm) throws IOException {
        long limit = System.nanoTime() + ORIGINS_LIMIT.toNanos();
        while (true) {
            Optional<TestEvent> first;
            try {
                first = events.poll(TestEvent.class, POLL);
            } catch (Channel.Closed closed) {
                first = Optional.empty();
            }
            if (first.isPresent()) {
                if (!(first.get() instanceof TestEvent.Loaded loaded)) {
                    throw new IllegalStateException("the test JVM did not report where it loaded the submission's classes"
                            + " from before its first test; it sent " + first.get());
                }
                origins.check(loaded.locations());
                return;
            }
            if (!jvm.isAlive() || System.nanoTime() >= limit) {
                throw new NeverConnected("the test JVM did not report where it loaded the submission's classes from"
                        + (jvm.isAlive() ? " within " + ORIGINS_LIMIT.toSeconds() + " s of reaching the grader" : ": it ended first"));
            }
        }
    }

    private static String seconds(Duration duration) {
        return duration == null ? "an unknown time" : String.format(java.util.Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }
}
