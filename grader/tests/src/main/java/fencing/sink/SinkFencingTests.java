package fencing.sink;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("FencedSink: tokens below the mark are rejected, tokens equal to it are accepted")
class SinkFencingTests {

    @Test
    @Graded(points = 2, tags = "stale-rejection")
    @DisplayName("A write with a token below the mark is rejected and changes neither value nor mark")
    void rejectsTokenBelowMarkAndChangesNothing(@TempDir Path dir) {
        Path file = dir.resolve("sink.db");
        FencedSink sink = new FencedSink(ConnectionSource.sqlite(file));
        sink.write(8, "new owner");

        WriteResult stale = sink.write(7, "old owner");

        assertThat(stale.accepted())
                .as("a write with token %d after token %d must be rejected: the sink has seen a newer owner", 7, 8)
                .isFalse();
        assertThat(stale)
                .as("the result of a rejected write (token 7 after 8) must report the state after the call: value and mark unchanged")
                .isEqualTo(new WriteResult(false, 8, "new owner"));
        assertThat(sink.read())
                .as("after rejecting token 7 the sink must still read value \"new owner\" with mark 8")
                .isEqualTo(new SinkState("new owner", 8));
        assertThat(SinkTable.read(file))
                .as("after rejecting token 7 the database row must still hold value \"new owner\" and mark 8")
                .isEqualTo(new SinkState("new owner", 8));
    }

    @Test
    @Graded(points = 1, tags = "stale-rejection")
    @DisplayName("The late write that a PlainSink stores is the one a FencedSink rejects")
    void plainSinkStoresTheStaleWriteThatFencedSinkRejects(@TempDir Path dir) {
        Sink fenced = new FencedSink(ConnectionSource.sqlite(dir.resolve("fenced.db")));
        Sink plain = new PlainSink(ConnectionSource.sqlite(dir.resolve("plain.db")));
        for (Sink sink : new Sink[] {fenced, plain}) {
            sink.write(34, "written by the new owner");
            sink.write(33, "written late by the paused old owner");
        }

        assertThat(plain.read().value())
                .as("a PlainSink never consults the token, so the paused owner's late write (token 33 after 34) overwrites the data")
                .isEqualTo("written late by the paused old owner");
        assertThat(fenced.read().value())
                .as("a FencedSink must reject the paused owner's late write (token 33 after 34) and keep the new owner's value")
                .isEqualTo("written by the new owner");
    }

    @Test
    @Graded(points = 2, tags = "equal-token-acceptance")
    @DisplayName("A write with a token equal to the mark is accepted")
    void acceptsTokenEqualToMark(@TempDir Path dir) {
        Path file = dir.resolve("sink.db");
        FencedSink sink = new FencedSink(ConnectionSource.sqlite(file));
        sink.write(7, "first write of owner 7");

        WriteResult again = sink.write(7, "second write of owner 7");

        assertThat(again.accepted())
                .as("a second write with token %d when the mark is %d must be accepted: it is the same owner, "
                        + "and fencing orders owners, it does not deduplicate writes", 7, 7)
                .isTrue();
        assertThat(again)
                .as("the result of the accepted write with token 7 must report the new value and mark 7")
                .isEqualTo(new WriteResult(true, 7, "second write of owner 7"));
        assertThat(SinkTable.read(file))
                .as("after accepting a second write with token 7 the database row must hold its value and mark 7")
                .isEqualTo(new SinkState("second write of owner 7", 7));
    }

    @Test
    @Graded(points = 1, tags = "equal-token-acceptance")
    @DisplayName("On a new sink, a write with token 0 (equal to the initial mark 0) is accepted")
    void acceptsTokenEqualToInitialMark(@TempDir Path dir) {
        Path file = dir.resolve("sink.db");
        FencedSink sink = new FencedSink(ConnectionSource.sqlite(file));

        WriteResult first = sink.write(0, "first");

        assertThat(first.accepted())
                .as("a new sink's mark is 0, so a write with token 0 must be accepted (0 >= 0)")
                .isTrue();
        assertThat(SinkTable.read(file))
                .as("after accepting token 0 on a new sink the database row must hold value \"first\" and mark 0")
                .isEqualTo(new SinkState("first", 0));
    }
}
