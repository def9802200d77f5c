package fencing.grader.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencing.grader.files.BatchFolder;
import fencing.grader.files.BatchRecord;
import fencing.grader.files.GradeStatus;
import fencing.grader.files.GradebookRow;
import fencing.grader.files.ProgressRecord;
import fencing.grader.files.ResultsFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a batch makes of the output folder it is given: a stopped batch of its own continued, another's refused, a
 * finished one graded again; and which finished grades stand.
 */
class ProgressTests {

    private static final String GRADER = "grader-print";

    @TempDir
    Path dir;

    @Test
    @DisplayName("a stopped batch that graded a student this batch does not grade, or of another shard, is refused and its folder is left as it was")
    void anotherBatchsStoppedOutputIsRefusedUntouched() throws IOException {
        Path out = dir.resolve("out");
        record(out, graded("ada"), "ada-print");
        record(out, graded("zed"), "zed-print");
        Map<Path, String> before = contents(out);

        assertThatThrownBy(() -> Progress.open(out, submissions("ada", "bo"), Shard.ALL)).as("continuing ada and zed's batch with ada and bo")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--out " + out)
                .hasMessageContaining("a stopped batch of other submissions (zed is not among those this batch grades)")
                .hasMessageContaining("or give another --out");
        Shard other = List.of(new Shard(1, 2), new Shard(2, 2)).stream().filter(shard -> !shard.contains("ada")).findFirst().orElseThrow();
        assertThatThrownBy(() -> Progress.open(out, submissions("ada", "zed"), other)).as("continuing it as shard %s", other)
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("(ada").hasMessageContaining("not among those this batch grades in shard " + other + ")");
        assertThat(contents(out)).as("the stopped batch's folder after both refusals").isEqualTo(before);
    }

    @Test
    @DisplayName("continuing a stopped batch says how many of its grades stand, and forgets those of another grader")
    void continuingSaysWhatStandsAndForgetsAnotherGradersRecords() throws IOException {
        Path out = dir.resolve("out");
        record(out, graded("ada"), "ada-print");
        record(out, refused("bo"), null);
        new ProgressRecord(Fingerprints.FORMAT, "an-earlier-grader", "chen-print", graded("chen")).write(out);
        ByteArrayOutputStream console = new ByteArrayOutputStream();

        Progress.open(out, submissions("ada", "bo", "chen", "dee"), Shard.ALL).begin(GRADER, new PrintStream(console, true, StandardCharsets.UTF_8));

        assertThat(console.toString(StandardCharsets.UTF_8)).as("what continuing ada's, bo's (refused) and chen's (another grader) batch of 4 said")
                .isEqualTo("Continuing the stopped batch in " + out + ": 1 of 4 already graded, and 1 graded by another grader (its hidden"
                        + " tests, grading policy, options or code differ) to grade again.\n");
        assertThat(ProgressRecord.readAll(out)).as("the records left once the batch began").containsOnlyKeys("ada", "bo");
    }

    @Test
    @DisplayName("a finished output graded again loses its batch.json as the batch begins, and says nothing of continuing")
    void aFinishedOutputGradedAgainLosesItsRecordFirst() throws IOException {
        Path out = dir.resolve("out");
        BatchRecord.write(out, new BatchRecord("1/1", List.of("ada"), List.of("ada"), Fingerprints.FORMAT, GRADER, Map.of("ada", "ada-print"),
                List.of()));
        ByteArrayOutputStream console = new ByteArrayOutputStream();

        Progress.open(out, submissions("ada"), Shard.ALL).begin(GRADER, new PrintStream(console, true, StandardCharsets.UTF_8));

        assertThat(out.resolve(BatchRecord.FILE)).as("the batch.json of the finished batch graded again").doesNotExist();
        assertThat(console.toString(StandardCharsets.UTF_8)).as("what beginning a finished output said").isEmpty();
    }

    @Test
    @DisplayName("a finished grade stands only for the same grader, the same student files and a report that is there; a refusal and a grade that could not run never do")
    void aFinishedGradeStandsOnlyForTheSameGraderFilesAndReport() throws IOException {
        Path out = dir.resolve("out");
        record(out, graded("ada"), "ada-print");
        record(out, refused("bo"), null);
        Progress progress = Progress.open(out, submissions("ada", "bo", "chen"), Shard.ALL).begin(GRADER, new PrintStream(
                new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        progress.record(new GradebookRow("chen", null, 160, List.of(), GradeStatus.COULD_NOT_RUN, "grading could not run: etcd",
                null, 108, null, 52, 0), GRADER, "chen-print");

        assertThat(ProgressRecord.readAll(out)).as("the records after a grade of chen that could not run").containsOnlyKeys("ada", "bo");
        assertThat(progress.finished("ada", GRADER, "ada-print")).as("ada's grade, its report not written yet").isEmpty();
        Files.createDirectories(BatchFolder.reports(out, "ada"));
        Files.writeString(BatchFolder.reports(out, "ada").resolve(ResultsFile.FILE), "{}");
        assertThat(progress.finished("ada", GRADER, "ada-print")).as("ada's grade, same grader and files, report there")
                .contains(graded("ada"));
        assertThat(progress.finished("ada", GRADER, "other-print")).as("ada's grade for other student files").isEmpty();
        assertThat(progress.finished("ada", "another-grader", "ada-print")).as("ada's grade for another grader").isEmpty();
        assertThat(progress.finished("bo", GRADER, "bo-print")).as("bo's refusal").isEmpty();
        assertThat(progress.finished("chen", GRADER, "chen-print")).as("chen's grade that could not run").isEmpty();
    }

    @Test
    @DisplayName("a batch that ends takes all its records away at once")
    void anEndedBatchLeavesNoRecord() throws IOException {
        Path out = dir.resolve("out");
        record(out, graded("ada"), "ada-print");
        Progress progress = Progress.open(out, submissions("ada"), Shard.ALL).begin(GRADER, new PrintStream(new ByteArrayOutputStream(),
                true, StandardCharsets.UTF_8));

        progress.end();

        try (Stream<Path> left = Files.list(out)) {
            assertThat(left).as("the output folder of the ended batch").isEmpty();
        }
    }

    private static void record(Path out, GradebookRow row, String fingerprint) throws IOException {
        new ProgressRecord(Fingerprints.FORMAT, GRADER, fingerprint, row).write(out);
    }

    private static GradebookRow graded(String student) {
        return new GradebookRow(student, 160, 160, List.of(), GradeStatus.GRADED, "", 108, 108, 52, 52, 17);
    }

    private static GradebookRow refused(String student) {
        return new GradebookRow(student, 0, 160, List.of(), GradeStatus.NOT_GRADED, "not graded: an empty folder", 0, 108, 0, 52, 0);
    }

    private List<Path> submissions(String... students) {
        return Stream.of(students).map(student -> dir.resolve("batch").resolve(student)).toList();
    }

    /** Every file below {@code root} with its text. */
    private static Map<Path, String> contents(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            Map<Path, String> found = new TreeMap<>();
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                found.put(root.relativize(file), Files.readString(file));
            }
            return found;
        }
    }
}
