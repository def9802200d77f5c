package fencing.grader.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A finished grade's progress record written and read back, a damaged one, and the grade that never has one. */
class ProgressRecordTests {

    private static final GradebookRow GRADED = new GradebookRow("smith, anna", 150, 160, List.of("quorum"), GradeStatus.GRADED, "",
            98, 108, 52, 52, 17);
    private static final GradebookRow REFUSED = new GradebookRow("bo", 0, 160, List.of(), GradeStatus.NOT_GRADED,
            "not graded: no src/main/java/ folder", 0, 108, 0, 52, 0);

    @TempDir
    Path out;

    @Test
    @DisplayName("records written and read back are the same records, filed under each student's reports folder name, with no file left beside them")
    void writtenRecordsReadBackTheSame() throws IOException {
        ProgressRecord graded = new ProgressRecord(1, "grader-print", "files-print", GRADED);
        ProgressRecord refused = new ProgressRecord(1, "grader-print", null, REFUSED);

        graded.write(out);
        refused.write(out);
        graded.write(out);

        assertThat(ProgressRecord.readAll(out)).as("the records read back from %s", BatchFolder.PROGRESS)
                .containsOnlyKeys("smith, anna", "bo").containsEntry("smith, anna", graded).containsEntry("bo", refused);
        try (Stream<Path> files = Files.list(BatchFolder.progress(out))) {
            assertThat(files.map(file -> file.getFileName().toString())).as("the files of %s after three writes", BatchFolder.PROGRESS)
                    .containsExactlyInAnyOrder("smith, anna", "bo");
        }
        assertThat(ProgressRecord.readAll(out.resolve("no-such-output"))).as("the records of a folder that has none").isEmpty();
    }

    @Test
    @DisplayName("a record cut short, or filed under another student's name, is refused as damaged, naming its file and what to do; a temporary file left by a stop is no record")
    void damagedRecordsAreRefusedByName() throws IOException {
        new ProgressRecord(1, "grader-print", "files-print", GRADED).write(out);
        Path file = BatchFolder.progressRecord(out, "smith, anna");
        String whole = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(BatchFolder.progress(out).resolve(".left-by-a-stop.tmp"), whole.substring(0, 20));
        assertThat(ProgressRecord.readAll(out)).as("the records beside a temporary file").containsOnlyKeys("smith, anna");

        Files.writeString(file, whole.substring(0, whole.length() / 2), StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ProgressRecord.readAll(out)).as("reading a record cut in half")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(file.toString()).hasMessageContaining("is damaged")
                .hasMessageContaining("remove it, and the submission smith, anna is graded again");

        Files.writeString(file, whole, StandardCharsets.UTF_8);
        Files.move(file, BatchFolder.progressRecord(out, "chen"));
        assertThatThrownBy(() -> ProgressRecord.readAll(out)).as("reading smith, anna's record filed as chen's")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is damaged (it is the record of smith, anna)");
    }

    @Test
    @DisplayName("a grade that could not run is never recorded, and a file that claims one is refused as damaged")
    void aGradeThatCouldNotRunHasNoRecord() throws IOException {
        GradebookRow couldNotRun = new GradebookRow("chen", null, 160, List.of(), GradeStatus.COULD_NOT_RUN,
                "grading could not run: etcd is not healthy", null, 108, null, 52, 0);

        assertThatThrownBy(() -> new ProgressRecord(1, "grader-print", "files-print", couldNotRun))
                .as("a record of a grade that could not run").isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("never recorded");
        assertThatThrownBy(() -> new ProgressRecord(1, "grader-print", null, GRADED))
                .as("a record of a graded submission without its files' fingerprint").isInstanceOf(IllegalArgumentException.class);

        new ProgressRecord(1, "grader-print", "files-print", REFUSED).write(out);
        Path file = BatchFolder.progressRecord(out, "bo");
        Files.writeString(file, Files.readString(file).replace("\"not_graded\"", "\"could_not_run\""));
        assertThatThrownBy(() -> ProgressRecord.readAll(out)).as("reading a record whose grade could not run")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is damaged")
                .hasMessageContaining("never recorded as finished");
    }
}
