package fencing.lab.sink;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.sink.ConnectionSource;
import fencing.sink.SinkState;
import fencing.sink.WriteResult;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The broken teaching sink on a real SQLite file: right when nothing races it, wrong when a newer write lands in its gap. */
class CheckOutsideTransactionSinkTests {

    @TempDir
    Path dir;

    @Test
    void rejectsATokenBelowTheMarkWhenNothingRacesIt() {
        ConnectionSource db = ConnectionSource.sqlite(dir.resolve("sink.db"));
        CheckOutsideTransactionSink sink = new CheckOutsideTransactionSink(db);
        sink.write(8, "B-current");

        WriteResult late = sink.write(7, "A-late");

        assertThat(late.accepted()).as("a write with token %d after token %d must be rejected: the resource has seen a newer owner", 7, 8).isFalse();
        assertThat(sink.read()).as("the rejected write changed nothing").isEqualTo(new SinkState("B-current", 8));
    }

    @Test
    @DisplayName("A newer write committed between the check and the write is overwritten by the stale one, and the mark goes back")
    void acceptsAStaleWriteWhenANewerOneCommitsInTheGap() {
        ConnectionSource db = ConnectionSource.sqlite(dir.resolve("sink.db"));
        CheckOutsideTransactionSink other = new CheckOutsideTransactionSink(db);
        AtomicReference<WriteResult> newer = new AtomicReference<>();
        CheckOutsideTransactionSink sink = new CheckOutsideTransactionSink(db, (token, markSeen) -> newer.set(other.write(8, "B-current")));

        WriteResult late = sink.write(7, "A-late");

        assertThat(newer.get().accepted()).as("B's write with token 8 committed in the gap").isTrue();
        assertThat(late.accepted()).as("the broken sink accepts token 7 after token 8 committed: its check ran before B's write").isTrue();
        assertThat(sink.read()).as("the stale value overwrote B's and the mark went back from 8 to 7").isEqualTo(new SinkState("A-late", 7));
    }
}
