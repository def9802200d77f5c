package fencing.sink;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("FencedSink: the high-water mark lives in SQLite and survives a restart")
class SinkDurabilityTests {

    @Test
    @Graded(points = 2, tags = "durability")
    @DisplayName("A new FencedSink over the same file keeps the mark and still rejects a stale token")
    void newSinkOverSameFileKeepsMarkAndRejectsStaleToken(@TempDir Path dir) {
        Path file = dir.resolve("sink.db");
        new FencedSink(ConnectionSource.sqlite(file)).write(9, "before the restart");

        FencedSink reopened = new FencedSink(ConnectionSource.sqlite(file));

        assertThat(reopened.read())
                .as("a sink reopened over the same file must read what was written before: value and mark 9")
                .isEqualTo(new SinkState("before the restart", 9));
        WriteResult stale = reopened.write(4, "stale, after the restart");
        assertThat(stale.accepted())
                .as("after a restart, a write with token %d must still be rejected: the mark %d was saved in the database", 4, 9)
                .isFalse();
        assertThat(SinkTable.read(file))
                .as("the rejected write with token 4 after the restart must leave the row at value \"before the restart\", mark 9")
                .isEqualTo(new SinkState("before the restart", 9));
    }

    @Test
    @Graded(points = 2, tags = "durability")
    @DisplayName("The mark is the database's: the sink reads it from SQLite on every write")
    void markLivesInTheDatabase(@TempDir Path dir) {
        Path file = dir.resolve("sink.db");
        FencedSink sink = new FencedSink(ConnectionSource.sqlite(file));
        sink.write(9, "owner 9");
        assertThat(SinkTable.read(file))
                .as("an accepted write with token 9 must store both its value and mark 9 in the sink_state row")
                .isEqualTo(new SinkState("owner 9", 9));

        // Another sink process (or an operator) raised the mark; only the database knows.
        SinkTable.set(file, "owner 20, written elsewhere", 20);
        WriteResult result = sink.write(15, "owner 15");

        assertThat(result.accepted())
                .as("the database's mark is 20, so a write with token %d must be rejected, whatever this sink "
                        + "saw before (it last accepted 9): the mark lives in SQLite, not in a Java field", 15)
                .isFalse();
        assertThat(SinkTable.read(file))
                .as("the rejected write with token 15 must leave the row at value \"owner 20, written elsewhere\", mark 20")
                .isEqualTo(new SinkState("owner 20, written elsewhere", 20));
    }
}
