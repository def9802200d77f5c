package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.pipeline.Limits;
import fencing.support.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test that cannot finish is the student's when its JVM had the CPU it asked for: a deadlock loses the test's points,
 * as a deadlock, and the grade is scored. (How a starved JVM is told apart is {@code JvmWorkTests}'.)
 *
 * <p>It grades with a ten-second backstop (a system property over the policy's limits), and without etcd, so that each
 * grade takes about a minute. Each test stopped is told first where the student's threads were (a hint from a thread
 * dump, which the report leaves out).
 */
// Right after HostileCatalogTests (junit-platform.properties): a deadlock's test waits out its backstop, and the
// catalog's pass, started a moment before, keeps the cores busy meanwhile.
@Order(3)
class StarvationTests {

    private static final Duration LIMIT = Duration.ofMinutes(5);
    private static final List<String> SHORT_LIMITS = List.of(Limits.PROPERTY_PREFIX + "test-cpu-seconds=2",
            Limits.PROPERTY_PREFIX + "test-wall-seconds=10");

    @TempDir
    Path dir;

    @Test
    @DisplayName("a deadlock on a machine with CPU to spare loses the test's points, as a deadlock said first to wait where the student's threads wait, and the grade is scored")
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
                        .contains("a deadlock, or a wait that never ends")
                        .startsWith("waiting in Quorum.size (Quorum.java:28) and Quorum.size, in a lambda (Quorum.java:19)"));
        assertThat(Files.readString(dir.resolve("deadlocked").resolve("summary.md"))).as("the summary of a grade of %s", entry.getFileName())
                .doesNotContain("Full thread dump").doesNotContain("java.lang.Thread.State");
    }

    @Test
    @DisplayName("a test stopped for its CPU budget is told first the method and line of the student's endless loop")
    void anEndlessLoopIsToldItsMethodAndLine() throws Exception {
        Path entry = KitLocations.catalog().resolve("hostile/infinite-loop");
        CommandRun run = grade(CatalogSubmissions.assemble(entry, dir.resolve("loop")), dir.resolve("looped"), List.of());

        assertThat(run.exit()).as("exit code of a scored grade of %s; it printed:%n%s", entry.getFileName(), run.output()).isZero();
        assertThat(Verdicts.tests(dir.resolve("looped").resolve("results.json"))).as("the quorum tests of %s", entry.getFileName())
                .filteredOn(test -> test.tags().contains("quorum")).isNotEmpty()
                .allSatisfy(test -> assertThat(test.output()).as("the message of %s", test.name())
                        .startsWith("stopped after 2 CPU-seconds in Quorum.size (Quorum.java:13): an endless loop?"));
        assertThat(Files.readString(dir.resolve("looped").resolve("summary.md"))).as("the summary of a grade of %s", entry.getFileName())
                .doesNotContain("Full thread dump").doesNotContain("java.lang.Thread.State");
    }

    private static CommandRun grade(Path submission, Path out, List<String> prefix) throws Exception {
        List<String> command = new ArrayList<>(prefix);
        command.add(ChildJvm.java());
        command.add("@" + KitLocations.root().resolve("grader/tool/target/launcher/grade.args"));
        SHORT_LIMITS.forEach(limit -> command.add("-D" + limit));
        command.addAll(List.of("fencing.grader.cli.GradeCommand", submission.toString(), "--out", out.toString(), "--no-etcd"));
        return CommandRun.of(command, Map.of(), KitLocations.root(), out.resolveSibling(out.getFileName() + ".log"), LIMIT);
    }
}
