package fencing.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("FencedSink: a SQLite sink that rejects writes with a token below its high-water mark")
class FencedSinkTests {

    @TempDir
    Path dir;

    private FencedSink newSink() {
        return new FencedSink(ConnectionSource.sqlite(dir.resolve("sink.db")));
    }

    @Test
    @DisplayName("The first write is accepted and sets the value and the mark")
    void acceptsFirstWrite() {
        FencedSink sink = newSink();

        WriteResult result = sink.write(3, "first");

        assertThat(result)
                .as("a write with token 3 on a new sink (mark 0) must be accepted, and the state after it is value \"first\", mark 3")
                .isEqualTo(new WriteResult(true, 3, "first"));
        assertThat(sink.read())
                .as("after accepting (3, \"first\") the sink must read value \"first\" with mark 3")
                .isEqualTo(new SinkState("first", 3));
    }

    @Test
    @DisplayName("A write with an older token is rejected and changes nothing")
    void rejectsTokenBelowHighWaterMark() {
        FencedSink sink = newSink();
        sink.write(8, "new owner");

        WriteResult result = sink.write(7, "old owner");

        assertThat(result.accepted())
                .as("a write with token %d after token %d must be rejected: the sink has seen a newer owner", 7, 8)
                .isFalse();
        assertThat(sink.read())
                .as("a rejected write (token 7 after 8) must leave value \"new owner\" and mark 8")
                .isEqualTo(new SinkState("new owner", 8));
    }

    @Test
    @DisplayName("A write with the same token as the mark is accepted")
    void acceptsTokenEqualToHighWaterMark() {
        FencedSink sink = newSink();
        sink.write(5, "first");

        WriteResult result = sink.write(5, "second");

        assertThat(result.accepted())
                .as("a second write with token %d after token %d must be accepted: the same owner may write again (5 >= 5)", 5, 5)
                .isTrue();
        assertThat(sink.read())
                .as("after accepting a second write with token 5 the value must be \"second\", the mark still 5")
                .isEqualTo(new SinkState("second", 5));
    }

    @Test
    @DisplayName("The mark is kept in the database: a new sink over the same file still rejects an old token")
    void keepsMarkAcrossRestart() {
        newSink().write(9, "before the restart");

        FencedSink restarted = newSink();
        WriteResult result = restarted.write(4, "after the restart");

        assertThat(result.accepted())
                .as("after a restart a write with token %d must still be rejected: the mark %d lives in SQLite", 4, 9)
                .isFalse();
        assertThat(restarted.read())
                .as("the restarted sink must read what was stored before: value \"before the restart\", mark 9")
                .isEqualTo(new SinkState("before the restart", 9));
    }
}
