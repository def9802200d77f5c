package fencing.lab.sink;

import static fencing.lab.sink.SeededSinkServer.reply;
import static org.assertj.core.api.Assertions.assertThat;

import fencing.sink.SinkState;
import fencing.support.evidence.SinkReply;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sink server's verdicts over real HTTP on loopback and real SQLite files. */
class SinkServerTests {

    @TempDir
    Path dir;

    private SeededSinkServer sink;

    @BeforeEach
    void startServerWithBCurrentInBothModes() throws Exception {
        sink = SeededSinkServer.start(dir);
    }

    @AfterEach
    void stopServer() {
        sink.close();
    }

    @Test
    @DisplayName("A write with a token at or above the mark is accepted, and the response says the state after it")
    void acceptsAWriteAtOrAboveTheMarkAndReportsTheStateAfterIt() throws Exception {
        HttpResponse<String> response = sink.post("/sinks/fenced/write", "{\"writer\":\"C\",\"token\":9,\"value\":\"C-next\"}");
        assertThat(response.statusCode()).as("a valid write gets 200, got %s", response.body()).isEqualTo(200);
        SinkReply.WriteVerdict body = reply(response, SinkReply.WriteVerdict.class);

        assertThat(body.verdict()).as("token 9 after mark 8 must be accepted: %s", response.body()).isEqualTo("accepted");
        assertThat(body.after().value()).as("the response says the value after the call: %s", response.body()).isEqualTo("C-next");
        assertThat(body.after().highWaterMark()).as("the mark after the call is the accepted token: %s", response.body()).isEqualTo(9);
        assertThat(sink.fencedFile()).as("the fenced file holds the accepted write").isEqualTo(new SinkState("C-next", 9));
    }

    @Test
    @DisplayName("A stale write is rejected by the fenced mode and accepted by the plain mode")
    void rejectsAStaleWriteInFencedModeAndAcceptsItInPlainMode() throws Exception {
        HttpResponse<String> fenced = sink.post("/sinks/fenced/write", "{\"writer\":\"A\",\"token\":7,\"value\":\"A-late\"}");
        HttpResponse<String> plain = sink.post("/sinks/plain/write", "{\"writer\":\"A\",\"token\":7,\"value\":\"A-late\"}");

        assertThat(reply(fenced, SinkReply.WriteVerdict.class).verdict())
                .as("a write with token %d after token %d must be rejected: the resource has seen a newer owner (%s)", 7, 8, fenced.body())
                .isEqualTo("rejected");
        assertThat(reply(fenced, SinkReply.WriteVerdict.class).after().value())
                .as("after a rejected write the fenced mode still says B-current: %s", fenced.body()).isEqualTo("B-current");
        assertThat(reply(plain, SinkReply.WriteVerdict.class).verdict())
                .as("the plain mode never consults a token, so it accepts token 7 after 8: %s", plain.body()).isEqualTo("accepted");
        assertThat(sink.fencedFile()).as("the fenced file is unchanged by the stale write").isEqualTo(SeededSinkServer.SEEDED);
        assertThat(sink.plainFile().value()).as("the plain file holds the stale write").isEqualTo("A-late");
    }

    @Test
    void readsAModesStateWithGet() throws Exception {
        HttpResponse<String> response = sink.get("/sinks/fenced");
        assertThat(response.statusCode()).as("GET /sinks/fenced gets 200, got %s", response.body()).isEqualTo(200);
        SinkReply.ModeState body = reply(response, SinkReply.ModeState.class);

        assertThat(body.value()).as("GET says the value: %s", response.body()).isEqualTo("B-current");
        assertThat(body.highWaterMark()).as("GET says the mark: %s", response.body()).isEqualTo(8);
    }

    @Test
    @DisplayName("While the server runs, a write leaves the write-ahead log in place: the sink's close is never the file's last,"
            + " so no write pays a checkpoint")
    void aWriteLeavesTheWriteAheadLogInPlace() throws Exception {
        HttpResponse<String> response = sink.post("/sinks/fenced/write", "{\"writer\":\"C\",\"token\":9,\"value\":\"C-next\"}");

        assertThat(response.statusCode()).as("the write's status: %s", response.body()).isEqualTo(200);
        Path log = dir.resolve("fenced.db-wal");
        assertThat(log).as("the fenced file's write-ahead log after a write, which SQLite checkpoints and deletes on a"
                + " file's last close").isRegularFile();
        assertThat(java.nio.file.Files.size(log)).as("the size of %s, holding the write", log).isPositive();
    }
}
