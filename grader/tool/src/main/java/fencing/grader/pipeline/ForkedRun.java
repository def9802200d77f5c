package fencing.grader.pipeline;

import fencing.grader.sandbox.ClassDataArchive;
import fencing.grader.sandbox.Sandbox;
import fencing.support.Channel;
import fencing.support.ChildJvm;
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
 * <p>When that JVM dies in the middle of a test ({@code System.exit}, {@code Runtime.halt}, a crash),
 * the test it was running fails with what happened, and a new JVM runs the tests that are left.
 * A test that outlives its timeout by a margin has its JVM killed the same way. The whole run has a
 * wall-clock limit; tests not run by then fail with a message that says so.
 *
 * <p>Before its first test, each JVM reports where it loaded the submission's classes from ({@link ClassOrigins}); a
 * JVM that loaded them from anywhere but the submission's class directory, or that ended before it reached the grader
 * at all, is a failure of the grader's, not the student's: the run ends with an exception that says so, and no score.
 */
final class ForkedRun {

    private static final Duration KILL_MARGIN = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final int HEAP_MEGABYTES = 384;
    /** Loading the submission's few classes without initializing them takes milliseconds; this is for a starved CPU. */
    private static final Duration ORIGINS_LIMIT = Duration.ofSeconds(60);

    private final List<Path> classPath;
    private final Path workDir;
    private final Map<String, String> environment;
    private final Duration testTimeout;
    private final Duration timeLimit;
    private final List<String> notes = new ArrayList<>();
    private String lastOutput = "";

    private final Sandbox sandbox;
    private final List<Path> hidden;
    private final ClassDataArchive classData;
    private final ClassOrigins origins;

    ForkedRun(List<Path> classPath, Path workDir, Map<String, String> environment, Duration testTimeout, Duration timeLimit,
              Sandbox sandbox, List<Path> hidden, ClassDataArchive classData, ClassOrigins origins) {
        this.sandbox = sandbox;
        this.origins = origins;
        this.classData = classData;
        this.hidden = hidden;
        this.classPath = classPath;
        this.workDir = workDir;
        this.environment = environment;
        this.testTimeout = testTimeout;
        this.timeLimit = timeLimit;
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
     */
    List<TestResult> run(List<TestCase> tests) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeLimit.toNanos();
        Map<String, TestResult> results = new LinkedHashMap<>();
        int attempt = 0;
        while (results.size() < tests.size()) {
            List<TestCase> remaining = tests.stream().filter(test -> !results.containsKey(test.uniqueId())).toList();
            if (System.nanoTime() >= deadline) {
                remaining.forEach(test -> results.put(test.uniqueId(), new TestResult(test, false,
                        "not run: grading stopped at its time limit of " + timeLimit.toSeconds() + " s", -1)));
                break;
            }
            attempt++;
            int before = results.size();
            runOnce(remaining, results, deadline, attempt);
            if (results.size() == before) {
                String why = "not run: the test JVM ended before this test could start";
                remaining.forEach(test -> results.put(test.uniqueId(), new TestResult(test, false, why, -1)));
            }
        }
        return tests.stream().map(test -> results.get(test.uniqueId())).toList();
    }

    private void runOnce(List<TestCase> tests, Map<String, TestResult> results, long deadline, int attempt)
            throws IOException, InterruptedException {
        Path ids = workDir.resolve("tests-" + attempt + ".txt");
        Files.write(ids, tests.stream().map(TestCase::uniqueId).toList(), StandardCharsets.UTF_8);
        Path runDir = Files.createDirectories(workDir.resolve("run"));
        Path tmpDir = Files.createDirectories(workDir.resolve("tmp"));
        Path classList = origins.writeList(workDir.resolve("student-classes.txt"));
        sandbox.prepare(workDir, runDir, tmpDir);
        Tally tally = new Tally(tests, results, testTimeout);

        try (Channel.Listener listener = Channel.listen(); LoopbackBridge bridge = Network.bridge(sandbox, environment, listener, this::noteOnce)) {
            ChildJvm child = ChildJvm.of(ChildRunner.class)
                    .prefix(sandbox.commandPrefix(hidden, bridge != null))
                    .maxHeapMegabytes(HEAP_MEGABYTES)
                    .systemProperty("java.io.tmpdir", tmpDir.toString())
                    .systemProperty(ChildRunner.TIMEOUT_PROPERTY, Long.toString(testTimeout.toSeconds()))
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
                Ending ending = listen(listener, jvm, tally, deadline);
                jvm.close();
                output.awaitEnd();
                lastOutput = output.text();
                if (!ending.connected()) {
                    if (ending.kind() == Kind.EXITED) {
                        throw new NeverConnected("the test JVM ended before it reached the grader, so no test could run"
                                + " (nothing of the submission's had run yet); its last output: "
                                + (lastOutput.isBlank() ? "(none)" : lastOutput.strip()));
                    }
                }
                if (output.total() > 1_000_000) {
                    notes.add("The tests printed " + output.total() / 1024 + " KiB of output; only the last "
                            + lastOutput.length() / 1024 + " KiB were kept.");
                }
                settle(ending, tally, lastOutput);
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

    private enum Kind { DONE, EXITED, TEST_TIMEOUT, TIME_LIMIT }

    /**
     * How a JVM's run ended.
     *
     * @param testId    the test it was running, or {@code null}
     * @param connected whether it had reached the grader over the channel
     */
    private record Ending(Kind kind, String testId, boolean connected) {

        Ending(Kind kind, String testId) {
            this(kind, testId, true);
        }
    }

    /** A test JVM ended before it reached the grader: the machine or the grader failed, and no test could run. */
    static final class NeverConnected extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        NeverConnected(String message) {
            super(message);
        }
    }

    private Ending listen(Channel.Listener listener, Supervised jvm, Tally tally, long deadline) throws IOException {
        Optional<Channel> accepted = Optional.empty();
        while (accepted.isEmpty()) {
            if (!jvm.isAlive()) {
                return new Ending(Kind.EXITED, null, false);
            }
            if (System.nanoTime() >= deadline) {
                return new Ending(Kind.TIME_LIMIT, null, false);
            }
            // Polled: the JVM may still be starting, or may have died before it connected.
            accepted = listener.accept(POLL);
        }
        try (Channel events = accepted.get()) {
            requireOwnClasses(events, jvm);
            while (true) {
                Optional<String> running = tally.running();
                if (System.nanoTime() >= deadline) {
                    return new Ending(Kind.TIME_LIMIT, running.orElse(null));
                }
                if (running.isPresent()
                        && tally.nanosRunning(running.get()) > testTimeout.plus(KILL_MARGIN).toNanos()) {
                    return new Ending(Kind.TEST_TIMEOUT, running.get());
                }
                Optional<TestEvent> event;
                try {
                    event = events.poll(TestEvent.class, POLL);
                } catch (Channel.Closed closed) {
                    return new Ending(Kind.EXITED, running.orElse(null));
                }
                if (event.isEmpty()) {
                    continue;
                }
                if (event.get() instanceof TestEvent.Done) {
                    return new Ending(Kind.DONE, null);
                }
                tally.record(event.get());
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

    private void settle(Ending ending, Tally tally, String output) {
        String id = ending.testId();
        if (id == null) {
            if (ending.kind() == Kind.EXITED) {
                notes.add("The test JVM exited between tests (System.exit, Runtime.halt or a crash); the tests left were run in a new JVM.");
            }
            return;
        }
        String message = switch (ending.kind()) {
            case EXITED -> output.contains("Terminating due to java.lang.OutOfMemoryError")
                    ? "the JVM ran out of memory during the test (OutOfMemoryError) and was ended"
                    : "the JVM exited during the test (System.exit, Runtime.halt or a crash)";
            case TEST_TIMEOUT -> "timed out after " + testTimeout.toSeconds()
                    + " s and did not stop when interrupted (an endless loop or a deadlock?): its JVM was killed";
            case TIME_LIMIT -> "timed out: grading stopped at its time limit of " + timeLimit.toSeconds() + " s";
            case DONE -> throw new IllegalStateException("a finished run has no test in progress");
        };
        TestCase test = tally.failRunning(id, message);
        if (ending.kind() != Kind.TIME_LIMIT) {
            notes.add(test.name() + ": " + message + "; the tests left were run in a new JVM.");
        }
    }
}
