package fencing.lab.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import fencing.support.evidence.SinkReply;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client reads the sink's answers as typed replies, and reports a body that is none as the exchange's error. */
class SinkClientTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("A write, a read and a refusal come back as a verdict, a state and a failure")
    void readsEachAnswerAsItsKind() throws IOException {
        try (SinkServer server = SinkServer.start(dir, 0, FencedVariant.FENCED, new PrintStream(OutputStream.nullOutputStream()))) {
            SinkClient client = new SinkClient(server.uri(), "B");

            Exchange write = client.write(Mode.FENCED, "B", 8, "B-current");
            Exchange read = client.read(Mode.FENCED);
            Exchange refused = client.call("GET", "/sinks/nowhere", null);

            assertThat(write.reply(SinkReply.WriteVerdict.class).after()).isEqualTo(new SinkReply.ModeAfter("B-current", 8));
            assertThat(write.verdict()).isEqualTo("accepted");
            assertThat(read.reply(SinkReply.ModeState.class)).isEqualTo(new SinkReply.ModeState("fenced", "FencedSink", "B-current", 8));
            assertThat(refused.response()).isInstanceOf(SinkReply.Failure.class);
            assertThat(refused.verdict()).startsWith("HTTP 404: unknown mode 'nowhere'");
        }
    }

    @Test
    @DisplayName("A body that is no answer of the sink's is the exchange's error, with its status, not a crash")
    void reportsABodyThatIsNoReply() throws IOException {
        HttpServer other = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        other.createContext("/", exchange -> {
            byte[] body = "{\"hello\": \"world\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        other.start();
        try {
            Exchange answered = new SinkClient(URI.create("http://127.0.0.1:" + other.getAddress().getPort()), "B")
                    .write(Mode.FENCED, "B", 8, "B-current");

            assertThat(answered.status()).isEqualTo(200);
            assertThat(answered.response()).as("no reply was read").isNull();
            assertThat(answered.accepted()).isFalse();
            assertThat(answered.verdict()).startsWith("HTTP 200: the body is no answer of the sink's").contains("{\"hello\": \"world\"}");
        } finally {
            other.stop(0);
        }
    }
}
