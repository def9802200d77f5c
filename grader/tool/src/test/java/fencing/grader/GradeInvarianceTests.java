package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.batch.ClassBatch;
import fencing.grader.files.ResultsFile;
import fencing.support.ChildJvm;
import fencing.support.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * A verdict never depends on where the kit lives, who runs it, how many cores it gets or how many grades run at once:
 * a fixed set of submissions, graded under each condition an instructor's machine may put the kit in, gets the same
 * verdict on every test as the reference grading, and the reference gets what the catalog expects.
 *
 * <p>A condition this machine cannot set up (grading as root, a second user, a CPU quota) is skipped, saying why;
 * with {@code KIT_REQUIRE_INVARIANCE=true} (set in CI, which runs as root and names a second user in
 * {@code KIT_OTHER_USER}) a skip fails instead.
 */
// The last class of the run (junit-platform.properties): its gradings keep both cores busy on their own, where a class that
// mostly waits, run last, would leave them idle.
@Order(Order.DEFAULT + 2)
@Tag("etcd")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GradeInvarianceTests {

    /** The solutions, two correct alternatives, three wrong entries losing points on different properties, one unfit. */
    private static final List<String> SET = List.of("solutions", "correct/etcd-txn-header-revision",
            "correct/sink-one-statement-update", "wrong/etcd-key-not-on-lease", "wrong/lock-racy-counter",
            "wrong/sink-deferred-transaction", "unfit/binary-file");
    private static final Duration LIMIT = Duration.ofMinutes(30);
    private static final boolean REQUIRED = "true".equalsIgnoreCase(System.getenv("KIT_REQUIRE_INVARIANCE"));
    private static final boolean ROOT = new com.sun.security.auth.module.UnixSystem().getUid() == 0;
    /**
     * How many gradings run at once. Their verdicts may not depend on it (the overload condition is the proof), so it is
     * set for the wall time alone: a grading spends much of its time waiting on etcd and on its test JVM's start.
     */
    private static final int AT_ONCE = 3;

    private ExecutorService gradings;
    private Path base;
    private Path batch;
    private Verdicts reference;

    @TestFactory
    @DisplayName("the same verdicts on every test under every condition, and the reference as the catalog expects")
    Stream<DynamicTest> verdictsDoNotDependOnWhereOrHowTheKitRuns() throws Exception {
        // Every user must be able to enter and read the batch, as a class's submissions folder on a shared machine.
        base = Files.createTempDirectory("fencing-invariance-");
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        batch = assemble(base.resolve("batch"));
        // The gradings overlap their waits, a few at a time; each is compared with the reference once both are done.
        gradings = Executors.newFixedThreadPool(AT_ONCE);
        Path referenceOut = base.resolve("out-reference");
        // One submission at a time: the reference is also the condition of a grader that never grades two at once.
        Future<CommandRun> referenceRun = gradings.submit(() -> builtGrader(referenceOut, List.of("--jobs", "1"), Map.of(), List.of()));
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest("reference: the built grader, one submission at a time, grades as the catalog expects",
                () -> reference(referenceOut, referenceRun.get())));
        for (Condition condition : conditions()) {
            Optional<String> unavailable = condition.unavailable().get();
            Path out = base.resolve("out-" + condition.name());
            Future<CommandRun> run = unavailable.isPresent() ? null : gradings.submit(() -> condition.grading().grade(out));
            tests.add(DynamicTest.dynamicTest(condition.name() + ": " + condition.description(),
                    () -> check(condition, unavailable, out, run)));
        }
        return tests.stream();
    }

    @AfterAll
    void deleteTheBatchAndTheCopies() throws InterruptedException {
        if (gradings != null) {
            gradings.shutdownNow();
            // Each grading ends its own processes when interrupted; the batch is deleted only once none is left.
            assertThat(gradings.awaitTermination(LIMIT.toMinutes(), TimeUnit.MINUTES)).as("the gradings ended").isTrue();
        }
        if (base != null) {
            FileTrees.delete(base);
        }
    }

    private List<Condition> conditions() {
        Path kit = KitLocations.root();
        return List.of(
                // First: held to half a CPU, it takes the longest and uses the least, so it runs beside the others' work
                // rather than alone after it.
                new Condition("cpu-quota", "the built grader and everything it starts sharing half a CPU (a cgroup quota)",
                        () -> ResourceLimits.unavailable(false), false, out -> {
                            try (ResourceLimits quota = ResourceLimits.of(0.5)) {
                                return builtGrader(out, List.of(), Map.of(), quota.prefix());
                            }
                        }),
                new Condition("private-dir", "a copy of the kit inside a directory only root can enter (mode 700), graded as root",
                        this::needsRoot, false, out -> {
                            Path closed = Files.createDirectory(base.resolve("private"));
                            Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
                            return kitGrade(KitCopy.copy(kit, closed.resolve("kit"), false), out, Map.of(), List.of(), Path.of("/"));
                        }),
                new Condition("umask-077", "a copy made and built under umask 077 (every file mode 600), graded as root",
                        this::needsRoot, false, out -> kitGrade(KitCopy.copy(kit, base.resolve("umask/kit"), true), out,
                                Map.of(), List.of("sh", "-c", "umask 077 && exec \"$@\"", "umask"), Path.of("/"))),
                new Condition("private-tmpdir", "java.io.tmpdir in a directory only root can enter: graded as usual, or"
                        + " \"grading could not run\", never a student's zero", this::needsRoot, true, out -> {
                            Path closed = Files.createDirectory(base.resolve("closed-tmp"));
                            Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
                            Path tmp = Files.createDirectory(closed.resolve("tmp"));
                            return builtGrader(out, List.of(), Map.of("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + tmp), List.of());
                        }),
                new Condition("odd-path", "a copy under a path with a space and a non-ASCII character, reached through a"
                        + " symbolic link, run from another working directory, under the POSIX locale", this::none, false, out -> {
                            Path copy = KitCopy.copy(kit, base.resolve("kit dir ü").resolve("kit"), false);
                            Path link = Files.createSymbolicLink(base.resolve("link"), copy);
                            Map<String, String> posix = new HashMap<>();
                            for (String variable : List.of("LANG", "LC_ALL", "LC_CTYPE", "LANGUAGE")) {
                                posix.put(variable, null);
                            }
                            return kitGrade(link, out, posix, List.of(), Path.of("/"));
                        }),
                new Condition("other-user", "a copy owned and graded by a user other than root (KIT_OTHER_USER)",
                        this::otherUserUnavailable, false, out -> OtherUser.named(System.getenv("KIT_OTHER_USER"))
                                .grade(kit, base.resolve("other-user"), batch, out, LIMIT)),
                // The grades are the overload: every submission at once, beside the other conditions' gradings. A busy
                // loop beside them would only take CPU from those, and the catalog's single pass, four grades at a time
                // per core, already holds every entry's verdicts to those recorded on a quiet machine.
                new Condition("overload", "the built grader with four times as many jobs as cores (every submission at once),"
                        + " beside the other conditions' gradings", this::none, false,
                        out -> builtGrader(out, List.of("--jobs", Integer.toString(CatalogGrades.overloadJobs())), Map.of(), List.of())));
    }

    private void reference(Path out, CommandRun run) throws Exception {
        reference = null;
        assertThat(run.exit()).as("exit code of the reference batch, which printed:%n%s", run.output()).isZero();
        Verdicts verdicts = Verdicts.read(out);
        for (String entry : SET) {
            Verdicts.Student student = verdicts.students().get(folder(entry));
            assertThat(student).as("the reference's grade of %s", entry).isNotNull();
            if (entry.startsWith("unfit/")) {
                assertThat(student.status()).as("status of the unfit %s", entry).startsWith("not graded:");
            } else if (entry.startsWith("wrong/")) {
                assertThat(student.status()).as("status of %s", entry).isEqualTo("graded");
                for (String tag : CatalogSubmissions.expectedTags(KitLocations.catalog().resolve(entry))) {
                    assertThat(student.tests()).as("%s must lose points on a test tagged %s", entry, tag)
                            .anyMatch(test -> test.tags().contains(tag) && !test.passed());
                }
            } else {
                assertThat(student.status()).as("status of %s", entry).isEqualTo("graded");
                assertThat(student.tests().stream().filter(test -> !test.passed()).map(ResultsFile.Test::name))
                        .as("tests %s failed, which must pass everything", entry).isEmpty();
            }
        }
        reference = verdicts;
    }

    private void check(Condition condition, Optional<String> unavailable, Path out, Future<CommandRun> grading) throws Exception {
        if (unavailable.isPresent() && REQUIRED) {
            throw new AssertionError(condition.name() + " must run (KIT_REQUIRE_INVARIANCE=true), but " + unavailable.get());
        }
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> condition.name() + " skipped: " + unavailable.get());
        CommandRun run = grading.get();
        assertThat(reference).as("the reference verdicts, which %s is compared with (the reference grading failed)", condition.name())
                .isNotNull();
        assertThat(out.resolve("gradebook.csv")).as("%s: the batch's gradebook; the command exited %d and printed:%n%s",
                condition.name(), run.exit(), run.output()).isRegularFile();
        Verdicts verdicts = Verdicts.read(out);
        boolean couldNotRun = verdicts.students().values().stream().anyMatch(student -> !student.scored());
        int expectedExit = condition.couldNotRunAllowed() && couldNotRun ? ClassBatch.SOME_COULD_NOT_RUN : 0;
        assertThat(run.exit()).as("%s: exit code of the batch, which printed:%n%s", condition.name(), run.output())
                .isEqualTo(expectedExit);
        assertThat(reference.differences(verdicts, condition.couldNotRunAllowed()))
                .as("%s: verdicts that differ from the reference's (student: test: what happened)", condition.name())
                .isEmpty();
    }

    /** Grades the batch with this kit's built grader, started directly as {@code ./kit grade} starts it. */
    private CommandRun builtGrader(Path out, List<String> options, Map<String, String> environment, List<String> prefix)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(ChildJvm.java(), "@" + KitLocations.root().resolve("grader/tool/target/launcher/grade.args"),
                "fencing.grader.cli.GradeCommand", "--batch", batch.toString(), "--out", out.toString()));
        command.addAll(options);
        return CommandRun.of(command, environment, KitLocations.root(), out.resolveSibling(out.getFileName() + ".log"), LIMIT);
    }

    /** Grades the batch as an instructor would in the kit at {@code kit}: {@code ./kit grade}, which builds it first. */
    private CommandRun kitGrade(Path kit, Path out, Map<String, String> environment, List<String> prefix, Path workingDirectory)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(kit.resolve("kit").toString(), "grade", "--batch", batch.toString(), "--out", out.toString()));
        Map<String, String> offline = new HashMap<>(environment);
        // Everything the copy's build needs is in the local repository already; nothing is downloaded again.
        offline.put("MAVEN_ARGS", "-o");
        return CommandRun.of(command, offline, workingDirectory, out.resolveSibling(out.getFileName() + ".log"), LIMIT);
    }

    private Path assemble(Path dir) throws IOException, InterruptedException {
        for (String entry : SET) {
            Path target = dir.resolve(folder(entry));
            if (entry.equals("solutions")) {
                CatalogSubmissions.assemble(KitLocations.solutions(), target);
            } else if (entry.startsWith("unfit/")) {
                UnfitSubmissions.build(KitLocations.catalog().resolve(entry), target);
            } else {
                CatalogSubmissions.assemble(KitLocations.catalog().resolve(entry), target);
            }
        }
        return dir;
    }

    private static String folder(String entry) {
        return entry.replace('/', '-');
    }

    private Optional<String> none() {
        return Optional.empty();
    }

    private Optional<String> needsRoot() {
        return ROOT ? Optional.empty() : Optional.of("only a grader run as root drops the tests to nobody, which is what"
                + " a closed directory or private files can break; run ./kit test as root");
    }

    private Optional<String> otherUserUnavailable() {
        if (!ROOT) {
            return Optional.of("switching to another user needs root");
        }
        return OtherUser.unavailable(System.getenv("KIT_OTHER_USER"));
    }

    /**
     * One way to run the grader.
     *
     * @param unavailable        why it cannot run on this machine, or nothing
     * @param couldNotRunAllowed whether "grading could not run" for every graded submission counts as agreeing
     * @param grading            grades the batch into the given folder
     */
    private record Condition(String name, String description, Supplier<Optional<String>> unavailable,
                             boolean couldNotRunAllowed, Grading grading) {
    }

    /** Grades the batch into {@code out}. */
    @FunctionalInterface
    interface Grading {
        CommandRun grade(Path out) throws Exception;
    }
}
