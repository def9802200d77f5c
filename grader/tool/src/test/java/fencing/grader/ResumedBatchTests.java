package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.cli.GradeCommand;
import fencing.grader.files.BatchFolder;
import fencing.grader.files.BatchRecord;
import fencing.grader.files.ProgressRecord;
import fencing.grader.files.ResultsFile;
import fencing.support.Etcd;
import fencing.support.FileTrees;
import fencing.support.ProcessLiveness;
import fencing.support.Supervised;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch stopped part-way by SIGTERM, as a terminal or a CI job stops it, keeps every grade it finished: run again over
 * the same folder it grades only the rest and ends with the gradebook of a batch never stopped, and a regrade
 * {@code --since} its folder reuses what it finished. Nothing it started outlives it.
 */
// After StarvationTests (junit-platform.properties): its batches, stopped part-way and run again, grade beside the
// catalog's pass.
@Order(4)
class ResumedBatchTests {

    /**
     * ada hands in the solutions, bo the stubs, chen a wrong quorum, dee a correct other quorum, eve a lock with one
     * constant token, fay the solutions with a Quorum.java that does not compile.
     */
    private static final List<String> STUDENTS = List.of("ada", "bo", "chen", "dee", "eve", "fay");
    /** The grades that must have finished before the batch is stopped. */
    private static final int FINISHED_BEFORE_THE_STOP = 2;
    /** A backstop for a batch that hangs; never what a verdict waits for. */
    private static final Duration HANG = Duration.ofMinutes(10);

    /** Shared by the tests: the class, its batch never stopped, and its batch stopped part-way, each run once. */
    @TempDir
    static Path dir;

    private static Path batch;
    private static Path whole;
    private static Path stopped;
    private static Stop stop;

    /**
     * How the stopped batch ended.
     *
     * @param exit     its exit code
     * @param started  the processes it had started when it got the SIGTERM, each with its program
     * @param left     those of them still running after it ended
     * @param finished the students whose grade it recorded as finished
     * @param console  what it printed
     */
    private record Stop(int exit, Map<ProcessHandle, String> started, List<ProcessHandle> left, Set<String> finished, String console) {
    }

    @BeforeAll
    static void gradeTheClassWholeAndStoppedPartWay() throws Exception {
        batch = dir.resolve("batch");
        FileTrees.copy(KitLocations.solutions().resolve("src"), batch.resolve("ada/src"));
        Files.copy(KitLocations.solutions().resolve("ANSWERS.md"), batch.resolve("ada/ANSWERS.md"));
        FileTrees.copy(KitLocations.exercises().resolve("src/main"), batch.resolve("bo/src/main"));
        CatalogSubmissions.assemble(KitLocations.catalog().resolve("wrong/quorum-tolerates-half"), batch.resolve("chen"));
        CatalogSubmissions.assemble(KitLocations.catalog().resolve("correct/quorum-ceil"), batch.resolve("dee"));
        CatalogSubmissions.assemble(KitLocations.catalog().resolve("wrong/lock-constant-token"), batch.resolve("eve"));
        Path quorum = CatalogSubmissions.assemble(KitLocations.catalog().resolve("correct/quorum-ceil"), batch.resolve("fay"))
                .resolve(StudentFiles.SOURCE_ROOT).resolve("fencing/basics/Quorum.java");
        Files.writeString(quorum, Files.readString(quorum).replace("public final class Quorum {", "public final class Quorum { not Java;"));

        whole = dir.resolve("whole");
        CommandRun never = grade(batch, whole);
        assertThat(never.exit()).as("exit code of the batch never stopped; it said: %s", never.output()).isZero();

        stopped = dir.resolve("stopped");
        stop = stopAfterSomeGrades(List.of("--batch", batch.toString(), "--out", stopped.toString(), "--no-etcd", "--jobs", "2"),
                stopped, FINISHED_BEFORE_THE_STOP, dir.resolve("stopped.log"));
        assertThat(stop.finished()).as("the grades the stopped batch finished: some, not all; it said:%n%s", stop.console())
                .hasSizeGreaterThanOrEqualTo(FINISHED_BEFORE_THE_STOP).hasSizeLessThan(STUDENTS.size());
    }

    @Test
    @DisplayName("a batch stopped by SIGTERM exits as a process ended by it does, and no test JVM it started outlives it")
    void aStoppedBatchLeavesNoProcessBehind() {
        assertThat(stop.exit()).as("exit code of the batch stopped by SIGTERM; it said:%n%s", stop.console()).isEqualTo(143);
        assertThat(stop.started().values()).as("the programs the batch had started when stopped: a test JVM among them")
                .anyMatch(ResumedBatchTests::isJvm);
        assertThat(stop.left()).as("the processes the stopped batch started that still run after it ended").isEmpty();
        assertThat(stopped.resolve(BatchRecord.FILE)).as("the stopped batch's batch.json").doesNotExist();
    }

    @Test
    @DisplayName("run again over its folder, a stopped batch keeps every finished grade untouched, grades only the rest, and ends with the gradebook of a batch never stopped")
    void aStoppedBatchRunAgainGradesOnlyTheRest() throws Exception {
        Path out = dir.resolve("continued");
        FileTrees.copy(stopped, out);
        Map<String, byte[]> results = new TreeMap<>();
        for (String student : stop.finished()) {
            results.put(student, Files.readAllBytes(out.resolve(student).resolve(ResultsFile.FILE)));
            // A line no grading run writes: still there only if the report was kept, not written again.
            Files.writeString(out.resolve(student).resolve("summary.md"), "\n<!-- finished before the stop -->\n", StandardOpenOption.APPEND);
        }

        CommandRun again = grade(batch, out);

        assertThat(again.exit()).as("exit code of the batch run again; it said: %s", again.output()).isZero();
        assertThat(again.output()).as("what the batch run again said first").contains("Continuing the stopped batch in " + out + ": "
                + stop.finished().size() + " of " + STUDENTS.size() + " already graded.");
        for (String student : STUDENTS) {
            if (stop.finished().contains(student)) {
                assertThat(again.output()).as("what the batch run again printed for %s, finished before the stop", student)
                        .containsPattern("(?m)^" + student + " +continued: already graded in this folder")
                        .doesNotContainPattern("(?m)^" + student + " +\\d+ / +\\d+ +in ");
                assertThat(out.resolve(student).resolve(ResultsFile.FILE)).as("%s's results.json, finished before the stop", student)
                        .hasBinaryContent(results.get(student));
                assertThat(Files.readString(out.resolve(student).resolve("summary.md"))).as("%s's summary.md, finished before the stop", student)
                        .contains("<!-- finished before the stop -->");
            } else {
                assertThat(again.output()).as("what the batch run again printed for %s, not finished before the stop", student)
                        .containsPattern("(?m)^" + student + " +\\d+ / +\\d+ +in ");
            }
        }
        assertThat(Files.readAllLines(out.resolve(BatchFolder.GRADEBOOK_CSV))).as("gradebook.csv of the batch run again, against the batch never stopped")
                .containsExactlyElementsOf(Files.readAllLines(whole.resolve(BatchFolder.GRADEBOOK_CSV)));
        assertThat(Files.readString(out.resolve(BatchFolder.GRADEBOOK_MD))).as("gradebook.md of the batch run again, against the batch never stopped")
                .isEqualTo(Files.readString(whole.resolve(BatchFolder.GRADEBOOK_MD)));
        for (String student : STUDENTS) {
            assertThat(verdicts(out, student)).as("%s's verdicts in the batch run again, against the batch never stopped", student)
                    .isEqualTo(verdicts(whole, student));
        }
        BatchRecord record = BatchRecord.read(out);
        assertThat(record.fingerprints()).as("batch.json's fingerprints, against the batch never stopped")
                .isEqualTo(BatchRecord.read(whole).fingerprints());
        assertThat(record.reused()).as("batch.json's students reused from an earlier batch: none, it is the same batch").isEmpty();
        assertThat(out.resolve(BatchFolder.PROGRESS)).as("the progress records of the batch that ended").doesNotExist();
        assertThat(out.resolve("gradebook.html")).as("the class page of the batch run again").isRegularFile();
    }

    @Test
    @DisplayName("a regrade --since the folder of a stopped batch reuses the grades it finished and grades the rest, leaving that folder as it was")
    void aRegradeSinceAStoppedBatchReusesWhatItFinished() throws Exception {
        Path out = dir.resolve("since-stopped");
        Map<String, String> before = texts(stopped);

        CommandRun regrade = grade(batch, out, "--since", stopped.toString());

        assertThat(regrade.exit()).as("exit code of the regrade since the stopped batch; it said: %s", regrade.output()).isZero();
        assertThat(BatchRecord.read(out).reused()).as("the students reused from the stopped batch: those it finished")
                .containsExactlyElementsOf(stop.finished());
        for (String student : STUDENTS) {
            assertThat(regrade.output()).as("what the regrade printed for %s", student).containsPattern("(?m)^" + student
                    + (stop.finished().contains(student) ? " +reused: same student files and grader" : " +\\d+ / +\\d+ +in "));
        }
        assertThat(Files.readAllLines(out.resolve(BatchFolder.GRADEBOOK_CSV))).as("gradebook.csv of the regrade, against the batch never stopped")
                .containsExactlyElementsOf(Files.readAllLines(whole.resolve(BatchFolder.GRADEBOOK_CSV)));
        assertThat(Files.readAllLines(out.resolve(BatchFolder.REGRADE_CSV)).subList(1, STUDENTS.size() + 1))
                .as("regrade.csv's outcomes: reused for the grades the stopped batch finished, new for the others")
                .allSatisfy(line -> assertThat(line.split(",", -1)[1])
                        .isEqualTo(stop.finished().contains(line.split(",", -1)[0]) ? "reused" : "new"));
        assertThat(texts(stopped)).as("the stopped batch's folder after a regrade since it").isEqualTo(before);
    }

    @Test
    @Tag("etcd")
    @DisplayName("a batch stopped by SIGTERM while its etcd and a test JVM run leaves neither running, and records nothing unfinished")
    void aBatchStoppedWhileEtcdRunsLeavesNoProcessBehind() throws Exception {
        Path out = dir.resolve("stopped-with-etcd");
        boolean ownEtcd = Etcd.findBinary().isPresent();

        Stop early = stopAfterSomeGrades(List.of("--batch", batch.toString(), "--out", out.toString(), "--jobs", "1"), out, 0,
                dir.resolve("stopped-with-etcd.log"), ownEtcd);

        assertThat(early.exit()).as("exit code of the batch stopped by SIGTERM; it said:%n%s", early.console()).isEqualTo(143);
        if (ownEtcd) {
            assertThat(early.started().values()).as("the programs the batch had started: the etcd it started from PATH among them")
                    .anyMatch(ResumedBatchTests::isEtcd);
        }
        assertThat(early.left()).as("the processes the stopped batch started that still run after it ended").isEmpty();
        assertThat(early.finished()).as("the grades recorded as finished by a batch stopped during its first grade").isEmpty();
    }

    private static Stop stopAfterSomeGrades(List<String> args, Path out, int finished, Path log) throws Exception {
        return stopAfterSomeGrades(args, out, finished, log, false);
    }

    /**
     * Starts the built grader with {@code args} in a process of its own, as {@code ./kit grade} does, and sends it
     * SIGTERM once at least {@code finished} grades are recorded and a test JVM it started runs (and an etcd, if
     * {@code etcd}); returns how it ended.
     */
    private static Stop stopAfterSomeGrades(List<String> args, Path out, int finished, Path log, boolean etcd) throws Exception {
        List<String> command = new ArrayList<>(launcher());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(KitLocations.root().toFile());
        // Its own etcd, if any: one this JVM uses would not be the stopped batch's to end.
        List.of("ETCD_ENDPOINTS", "ETCD_KEY_PREFIX", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS").forEach(builder.environment()::remove);
        if (etcd) {
            builder.environment().put("KIT_ETCD", "binary");
        }
        try (Supervised grader = Supervised.start("the batch to stop", builder, log.toFile())) {
            ProcessHandle process = ProcessHandle.of(grader.pid()).orElseThrow();
            long deadline = System.nanoTime() + HANG.toNanos();
            Map<ProcessHandle, String> started = new LinkedHashMap<>();
            while (true) {
                started.clear();
                // Each with its program as it runs: once it has ended, the system no longer tells.
                process.descendants().filter(ProcessLiveness::running)
                        .forEach(child -> started.put(child, child.info().command().orElse("")));
                boolean running = started.values().stream().anyMatch(ResumedBatchTests::isJvm)
                        && (!etcd || started.values().stream().anyMatch(ResumedBatchTests::isEtcd));
                if (running && ProgressRecord.readAll(out).size() >= finished) {
                    break;
                }
                assertThat(grader.isAlive()).as("the batch to stop still runs; it said:%n%s", Files.readString(log)).isTrue();
                assertThat(System.nanoTime()).as("time left for the batch to get that far; it said:%n%s", Files.readString(log))
                        .isLessThan(deadline);
                Thread.sleep(20);
            }
            process.destroy();
            assertThat(grader.awaitExit(HANG)).as("the batch ended after SIGTERM; it said:%n%s", Files.readString(log)).isTrue();
            List<ProcessHandle> left = ProcessLiveness.awaitGone(started.keySet(), Duration.ofSeconds(30));
            return new Stop(grader.exitValue(), Map.copyOf(started), left, ProgressRecord.readAll(out).keySet(), Files.readString(log));
        }
    }

    private static boolean isJvm(String program) {
        return program.endsWith("/java");
    }

    private static boolean isEtcd(String program) {
        return program.endsWith("/etcd");
    }

    /** Each test's verdict in {@code student}'s results.json of the batch output {@code out}, by name. */
    private static Map<String, Boolean> verdicts(Path out, String student) throws IOException {
        Map<String, Boolean> verdicts = new LinkedHashMap<>();
        for (ResultsFile.Test test : ResultsFile.read(out.resolve(student).resolve(ResultsFile.FILE)).tests()) {
            verdicts.merge(test.name(), test.passed(), Boolean::logicalAnd);
        }
        return verdicts;
    }

    /** Every file below {@code root} with its text, by relative path. */
    private static Map<String, String> texts(Path root) throws IOException {
        Map<String, String> texts = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                texts.put(root.relativize(file).toString(), Files.readString(file));
            }
        }
        return texts;
    }

    /**
     * Runs the built grader over {@code batch} into {@code out} in a process of its own, as the stopped batch ran: the
     * same grader, whose fingerprint a continued batch compares.
     */
    private static CommandRun grade(Path batch, Path out, String... more) throws Exception {
        List<String> command = new ArrayList<>(launcher());
        command.addAll(List.of("--batch", batch.toString(), "--out", out.toString(), "--no-etcd", "--jobs", "2"));
        command.addAll(List.of(more));
        return CommandRun.of(command, Map.of(), KitLocations.root(), dir.resolve(out.getFileName() + ".log"), HANG);
    }

    /** The built grader's command, as {@code ./kit grade} and the platform templates start it. */
    private static List<String> launcher() {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + KitLocations.root().resolve("grader/tool/target/launcher/grade.args"), GradeCommand.class.getName());
    }
}
