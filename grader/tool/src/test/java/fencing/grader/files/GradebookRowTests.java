package fencing.grader.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A {@code gradebook.csv} row written and read back, and a gradebook written before the row was a record. */
class GradebookRowTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("gradebook rows written and read back are the same records, names and reasons with commas, quotes and bars included")
    void writtenRowsReadBackAsTheSameRecords() throws IOException {
        List<GradebookRow> rows = List.of(
                new GradebookRow("ada", 170, 178, List.of("extension", "idempotency"), GradeStatus.GRADED, "", 120, 120, 50, 58, 3),
                new GradebookRow("bo, \"the second\"", 0, 178, List.of(), GradeStatus.NOT_GRADED,
                        "not graded: it is not laid out like exercises/: a | b, \"c\"", 0, 120, 0, 58, 0),
                new GradebookRow("#chen", null, 178, List.of(), GradeStatus.COULD_NOT_RUN, "grading could not run: etcd", null, 120,
                        null, 0, 0));
        Path file = dir.resolve("gradebook.csv");

        GradebookRow.write(rows, file);

        assertThat(GradebookRow.read(file)).as("the rows read back").isEqualTo(rows);
        assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).as("the file's lines, fields quoted only where they must be")
                .containsExactly(GradebookRow.HEADER, "ada,170,178,extension idempotency,graded,120,120,50,58,3",
                        "\"bo, \"\"the second\"\"\",0,178,,\"not graded: it is not laid out like exercises/: a | b, \"\"c\"\"\",0,120,0,58,0",
                        "#chen,,178,,grading could not run: etcd,,120,,0,0");
    }

    @Test
    @DisplayName("a gradebook.csv written before the row was a record reads, and is written again byte for byte")
    void anEarlierGradebookReadsAndIsWrittenAgainTheSame() throws IOException {
        Path before = dir.resolve("before.csv");
        Files.writeString(before, ResultsFileTests.resource("gradebook.csv"), StandardCharsets.UTF_8);
        Path again = dir.resolve("again.csv");

        List<GradebookRow> rows = GradebookRow.read(before);
        GradebookRow.write(rows, again);

        assertThat(rows).as("the statuses of the earlier gradebook's rows").extracting(GradebookRow::status)
                .containsExactly(GradeStatus.GRADED, GradeStatus.NOT_GRADED);
        assertThat(Files.readString(again)).as("the earlier gradebook written again").isEqualTo(Files.readString(before));
    }

    @Test
    @DisplayName("a CSV file with other columns is refused, naming the columns it has")
    void otherColumnsAreRefused() throws IOException {
        Path file = Files.writeString(dir.resolve("gradebook.csv"), "student,score\nada,3\n");

        assertThatThrownBy(() -> GradebookRow.read(file)).as("reading a gradebook of other columns")
                .isInstanceOf(GradebookRow.OtherColumns.class).hasMessageContaining("(student,score)");
    }
}
