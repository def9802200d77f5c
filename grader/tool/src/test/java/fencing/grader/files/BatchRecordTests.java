package fencing.grader.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A {@code batch.json} written and read back, one from before it had fingerprints, and the students a shard does not hold. */
class BatchRecordTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("a batch record written and read back is the same record, and says which students its shard does not hold")
    void writtenRecordReadsBackTheSame() throws IOException {
        BatchRecord record = new BatchRecord("2/3", List.of("ada", "bo", "chen"), List.of("bo"), 1, "grader-print",
                Map.of("bo", "bo-print"), List.of("bo"));

        BatchRecord.write(dir, record);

        assertThat(BatchRecord.read(dir)).as("the record read back from %s", BatchRecord.FILE).isEqualTo(record);
        assertThat(record.missing()).as("the students of the class that shard 2/3 does not hold").containsExactly("ada", "chen");
    }

    @Test
    @DisplayName("a batch.json from before the fingerprints reads, with no format to regrade from")
    void aRecordFromBeforeTheFingerprintsReads() throws IOException {
        Files.writeString(dir.resolve(BatchRecord.FILE), "{\"shard\":\"1/1\",\"students\":[\"ada\",\"bo\"],\"graded\":[\"ada\",\"bo\"]}",
                StandardCharsets.UTF_8);

        BatchRecord record = BatchRecord.read(dir);

        assertThat(record.students()).as("the students of a batch.json with shard, students and graded only").containsExactly("ada", "bo");
        assertThat(record.format()).as("the format of a batch.json that names none").isNull();
        assertThat(record.missing()).as("the students missing from a whole class's batch").isEmpty();
    }

    @Test
    @DisplayName("a folder without batch.json is no batch output, and the error says so")
    void aFolderWithoutTheFileIsRefused() {
        assertThatThrownBy(() -> BatchRecord.read(dir)).as("reading a batch record from an empty folder")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("it has no " + BatchRecord.FILE);
    }
}
