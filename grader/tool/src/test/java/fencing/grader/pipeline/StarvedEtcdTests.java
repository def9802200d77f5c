package fencing.grader.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.KitClassPath;
import fencing.grader.KitLocations;
import fencing.grader.ResourceLimits;
import fencing.grader.StudentFiles;
import fencing.grader.sandbox.ClassDataArchive;
import fencing.grader.sandbox.Sandbox;
import fencing.support.Etcd;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test that fails while the etcd it waits on stands in the run queue failed for the machine, not for the submission:
 * run side by side, its group runs again, and the verdict is that run's. A test that fails while etcd is stopped (hung,
 * not starved) is not excused that way.
 *
 * <p>Each grades the solutions' {@code EtcdLockService} and {@code Quorum} on one test each, in two groups side by side, on
 * an etcd of its own: held to a thousandth of a CPU (with writes of its own to spend it on), or stopped with SIGSTOP, until
 * the run of one test at a time starts.
 * Its tests' class set-up then waits for etcd until its own limit (30 s) or the backstop (20 s) ends it.
 */
// Beside the other classes (see junit-platform.properties): it mostly waits on an etcd of its own, held to a thousandth
// of a CPU or stopped, which no other class uses; how busy the machine is beside it changes neither case.
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock("starved-etcd")
class StarvedEtcdTests {

    private static final boolean REQUIRED = "true".equalsIgnoreCase(System.getenv("KIT_REQUIRE_INVARIANCE"));
    private static final KitClassPath KIT = KitClassPath.ofThisJvm();
    private static final Set<String> TESTS = Set.of(
            "fencing.etcd.EtcdReleaseTests#staleReleaseLeavesTheNewOwnersKey",
            "fencing.basics.QuorumGradedTests#majorityOfOddGroups");
    private static final String STARVED_NOTE = "A test failed on a timeout while the machine kept the test JVM or etcd waiting";

    @TempDir
    Path dir;

    private Path classes;
    private ClassOrigins origins;
    private List<TestCase> tests;

    @BeforeEach
    void compileTheSolutions() throws IOException {
        // As root the test JVM runs as nobody, who must be able to enter its work directory, as in any grade.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> files = List.of("fencing/etcd/EtcdLockService.java", "fencing/basics/Quorum.java");
        Path sources = dir.resolve("sources");
        for (String file : files) {
            Files.createDirectories(sources.resolve(file).getParent());
            Files.copy(KitLocations.solutions().resolve(StudentFiles.SOURCE_ROOT).resolve(file), sources.resolve(file));
        }
        classes = dir.resolve("classes");
        SubmissionCompiler.Result compiled = SubmissionCompiler.compile(sources, files, List.of(), classes, KIT.paths(),
                Contract.ofStubs(KIT.paths()));
        assertThat(compiled.ok()).as("the solutions' EtcdLockService and Quorum compile: %s", compiled.output()).isTrue();
        origins = new ClassOrigins(classes, compiled.classes());
        tests = TestSuite.HIDDEN.discover(true).stream()
                .filter(test -> TESTS.contains(test.className() + "#" + test.methodName())).toList();
        assertThat(tests).as("the graded tests %s", TESTS).hasSize(TESTS.size());
    }

    @Test
    @DisplayName("etcd held to a thousandth of a CPU while the groups run side by side: the group that failed for it runs again once etcd has the CPU, and passes")
    void aGroupThatFailedWhileEtcdWasStarvedRunsAgain() throws Exception {
        Optional<String> unavailable = ResourceLimits.unavailable(false);
        if (unavailable.isPresent() && REQUIRED) {
            throw new AssertionError("KIT_REQUIRE_INVARIANCE=true, but " + unavailable.get());
        }
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> unavailable.orElse(""));
        try (ResourceLimits starving = ResourceLimits.of(0.001); Etcd etcd = startEtcd(); Flood flood = new Flood(etcd)) {
            starving.add(pid(etcd));
            SideBySide.Outcome outcome = run(etcd, () -> {
                flood.close();
                starving.lift();
            });

            assertThat(outcome.notes()).as("the grade's notes, etcd starved while the groups ran side by side; the"
                    + " verdicts said %s", outcome.results().stream().map(TestResult::message).toList())
                    .anyMatch(note -> note.startsWith(STARVED_NOTE));
            assertThat(outcome.results()).as("the verdicts of the solutions, their etcd tests' group run again with etcd"
                    + " given the CPU; messages: %s", outcome.results().stream().map(TestResult::message).toList())
                    .allMatch(TestResult::passed);
        }
    }

    @Test
    @DisplayName("etcd stopped with SIGSTOP while the groups run side by side: not starved, so nothing is run again for want of a CPU")
    void aStoppedEtcdIsNotAStarvedOne() throws Exception {
        try (Etcd etcd = startEtcd()) {
            long pid = pid(etcd);
            signal("STOP", pid);
            SideBySide.Outcome outcome;
            try {
                outcome = run(etcd, () -> signal("CONT", pid));
            } finally {
                signal("CONT", pid);
            }

            assertThat(outcome.notes()).as("the grade's notes, etcd stopped while the groups ran side by side")
                    .noneMatch(note -> note.startsWith(STARVED_NOTE))
                    // A wait that never ends is the backstop's: the JVM was stopped, and the groups left ran again.
                    .anyMatch(note -> note.contains("ended or was stopped before they had finished"));
        }
    }

    /**
     * Writes to etcd, a few dozen writes at a time, until closed: a thousandth of a CPU then goes to these, and a test's
     * call waits behind them however cheap etcd's own work (its heartbeats) is.
     */
    private static final class Flood implements AutoCloseable {

        private static final int AT_ONCE = 64;

        private final Client client;
        private final Thread writer;
        private volatile boolean stopped;

        Flood(Etcd etcd) {
            client = etcd.newClient();
            Semaphore inFlight = new Semaphore(AT_ONCE);
            ByteSequence key = ByteSequence.from(Etcd.uniqueKey("flood"), StandardCharsets.UTF_8);
            writer = new Thread(() -> {
                while (!stopped) {
                    try {
                        // Bounded: once etcd is starved, this waits here for one of the writes before it to end.
                        if (inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                            client.getKVClient().put(key, key).whenComplete((put, failure) -> inFlight.release());
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "etcd flood");
            writer.setDaemon(true);
            writer.start();
        }

        @Override
        public void close() {
            if (!stopped) {
                stopped = true;
                writer.interrupt();
                // Ends the writes still waiting for etcd, so that it has only the tests' to answer.
                client.close();
            }
        }
    }

    private static Etcd startEtcd() {
        Optional<Path> binary = Etcd.findBinary();
        if (binary.isEmpty() && REQUIRED) {
            throw new AssertionError("KIT_REQUIRE_INVARIANCE=true, but there is no etcd binary on PATH");
        }
        Assumptions.assumeTrue(binary.isPresent(), "no etcd binary on PATH");
        return Etcd.startBinary(binary.get());
    }

    private static long pid(Etcd etcd) {
        return Etcd.processServing(etcd.endpoints()).orElseThrow(() -> new AssertionError("no process for " + etcd));
    }

    /** What the test does to etcd when the run of one test at a time starts. */
    @FunctionalInterface
    private interface Release {
        void release() throws IOException, InterruptedException;
    }

    /** Runs {@link #tests} side by side on {@code etcd}, as a grade does, calling {@code release} before any JVM of one test at a time. */
    private SideBySide.Outcome run(Etcd etcd, Release release) throws IOException, InterruptedException {
        Map<String, String> environment = Map.of("ETCD_ENDPOINTS", etcd.endpoints(), "ETCD_KEY_PREFIX", "starved-etcd");
        Path workDir = dir.resolve("work");
        for (String jvm : List.of(SideBySide.TOGETHER, SideBySide.IN_TURN)) {
            Files.createDirectories(workDir.resolve("jvm-" + jvm));
        }
        try (Sandbox sandbox = Sandbox.forThisMachine(); ClassDataArchive none = new ClassDataArchive(new KitClassPath(List.of()))) {
            sandbox.prepare(workDir);
            List<Path> classPath = sandbox.readable(KIT).forSubmission(classes);
            return SideBySide.run(tests, true, Duration.ofMinutes(5), jvm -> {
                if (jvm.equals(SideBySide.IN_TURN)) {
                    try {
                        release.release();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }
                return new ForkedRun(classPath, workDir.resolve("jvm-" + jvm), environment, GradingPolicy.load().limits(),
                        sandbox, List.of(), none, origins);
            });
        }
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor()).as("kill -%s %d", signal, pid).isZero();
    }
}
