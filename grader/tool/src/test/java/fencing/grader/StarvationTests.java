package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.batch.ClassBatch;
import fencing.grader.pipeline.Limits;
import fencing.support.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test that cannot finish is the student's only when its JVM had the CPU it asked for: a deadlock loses the test's
 * points, a machine that starves the test twice ends the grade as "grading could not run", with no score.
 *
 * <p>Both grade with a ten-second backstop (a system property over the policy's limits), and without etcd, so that each
 * takes seconds. The starved one runs the built grader in a CPU group that gets a tenth of a CPU once the test JVM has
 * started, so that the grader's own compile runs at full speed and only the tests are starved.
 */
class StarvationTests {

    private static final Duration LIMIT = Duration.ofMinutes(5);
    private static final boolean REQUIRED = "true".equalsIgnoreCase(System.getenv("KIT_REQUIRE_INVARIANCE"));
    private static final List<String> SHORT_LIMITS = List.of(Limits.PROPERTY_PREFIX + "test-cpu-seconds=2",
            Limits.PROPERTY_PREFIX + "test-wall-seconds=10");

    @TempDir
    Path dir;

    @Test
    @DisplayName("a test the machine starves twice ends the grade as grading could not run, exit 3, never a lost point")
    void aTestStarvedTwiceEndsTheGradeWithoutAScore() throws Exception {
        Optional<String> unavailable = ResourceLimits.unavailable(false);
        if (unavailable.isPresent() && REQUIRED) {
            throw new AssertionError("KIT_REQUIRE_INVARIANCE=true, but " + unavailable.get());
        }
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> unavailable.orElse(""));
        Path submission = CatalogSubmissions.assemble(KitLocations.solutions(), dir.resolve("solutions"));
        CommandRun run;
        try (ResourceLimits group = ResourceLimits.of(4)) {
            AtomicBoolean starving = new AtomicBoolean();
            Thread squeeze = new Thread(() -> squeezeOnceTheTestsStart(group, starving), "squeeze");
            squeeze.setDaemon(true);
            squeeze.start();
            run = grade(submission, dir.resolve("starved"), group.prefix());
            squeeze.interrupt();
            assertThat(starving).as("the test JVM must have started in the group, to be starved there").isTrue();
        }
        assertThat(run.exit()).as("exit code of a grade whose tests the machine starved; it printed:%n%s", run.output())
                .isEqualTo(ClassBatch.SOME_COULD_NOT_RUN);
        assertThat(run.output()).as("what a grade starved twice says").contains("grading could not run")
                .contains("the machine starved a test").doesNotContain(" / 178");
    }

    @Test
    @DisplayName("a deadlock on a machine with CPU to spare loses the test's points, as a deadlock, and the grade is scored")
    void aDeadlockLosesItsPointsAndTheGradeIsScored() throws Exception {
        Path entry = KitLocations.catalog().resolve("hostile/deadlock");
        Path submission = CatalogSubmissions.assemble(entry, dir.resolve("deadlock"));
        CommandRun run = grade(submission, dir.resolve("deadlocked"), List.of());

        assertThat(run.exit()).as("exit code of a scored grade of %s; it printed:%n%s", entry.getFileName(), run.output()).isZero();
        assertThat(run.output()).as("what the grade of %s says", entry.getFileName()).contains("failed: quorum")
                .doesNotContain("grading could not run");
        assertThat(Verdicts.tests(dir.resolve("deadlocked").resolve("results.json"))).as("the quorum tests of %s", entry.getFileName())
                .filteredOn(test -> test.tags().contains("quorum")).isNotEmpty()
                .allSatisfy(test -> assertThat(test.output()).as("the message of %s", test.name())
                        .contains("a deadlock, or a wait that never ends"));
    }

    private static CommandRun grade(Path submission, Path out, List<String> prefix) throws Exception {
        List<String> command = new ArrayList<>(prefix);
        command.add(ChildJvm.java());
        command.add("@" + KitLocations.root().resolve("grader/tool/target/launcher/grade.args"));
        SHORT_LIMITS.forEach(limit -> command.add("-D" + limit));
        command.addAll(List.of("fencing.grader.cli.GradeCommand", submission.toString(), "--out", out.toString(), "--no-etcd"));
        return CommandRun.of(command, Map.of(), KitLocations.root(), out.resolveSibling(out.getFileName() + ".log"), LIMIT);
    }

    private static boolean isTestJvm(ProcessHandle process) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline")).contains("ChildRunner");
        } catch (java.io.IOException gone) {
            return false;
        }
    }

    /** Gives the group a tenth of a CPU as soon as a test JVM runs in it. */
    private static void squeezeOnceTheTestsStart(ResourceLimits group, AtomicBoolean starving) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                boolean tests = group.processes().stream().anyMatch(StarvationTests::isTestJvm);
                if (tests) {
                    group.setCpus(0.1);
                    starving.set(true);
                    return;
                }
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot squeeze the CPU group", e);
        }
    }
}
