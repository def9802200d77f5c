package fencing.lab.sink;

import static fencing.lab.sink.SeededSinkServer.reply;
import static org.assertj.core.api.Assertions.assertThat;

import fencing.support.evidence.SinkReply;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sink server's strict validation: every bad request gets a 4xx that says what was wrong, and changes nothing.
 *
 * <p>One server for the class: every test here sends only bad requests, and each checks that both
 * SQLite files still hold exactly the seeded write afterwards.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SinkServerValidationTests {

    private SeededSinkServer sink;

    @BeforeAll
    void startServerWithBCurrentInBothModes(@TempDir Path dir) throws Exception {
        sink = SeededSinkServer.start(dir);
    }

    @AfterAll
    void stopServer() {
        sink.close();
    }

    Stream<Arguments> badBodies() {
        return Stream.of(
                Arguments.of("malformed JSON", "{\"writer\":\"C\",\"token\":9,", 400, "malformed JSON"),
                Arguments.of("trailing garbage", "{\"writer\":\"C\",\"token\":9,\"value\":\"x\"} trailing", 400, "malformed JSON"),
                Arguments.of("a duplicate key", "{\"writer\":\"C\",\"token\":9,\"token\":10,\"value\":\"x\"}", 400, "Duplicate field 'token'"),
                Arguments.of("an array", "[9]", 400, "must be a JSON object"),
                Arguments.of("an empty body", "", 400, "the body is empty"),
                Arguments.of("no token", "{\"writer\":\"C\",\"value\":\"x\"}", 400, "token is missing"),
                Arguments.of("a token in a string", "{\"writer\":\"C\",\"token\":\"9\",\"value\":\"x\"}", 400, "token must be a JSON integer, got a string"),
                Arguments.of("a non-numeric token", "{\"writer\":\"C\",\"token\":true,\"value\":\"x\"}", 400, "token must be a JSON integer, got a boolean"),
                Arguments.of("a null token", "{\"writer\":\"C\",\"token\":null,\"value\":\"x\"}", 400, "token must be a JSON integer, got a null"),
                Arguments.of("a fractional token", "{\"writer\":\"C\",\"token\":9.5,\"value\":\"x\"}", 400, "token must be a whole number"),
                Arguments.of("a negative token", "{\"writer\":\"C\",\"token\":-9,\"value\":\"x\"}", 400, "token must not be negative"),
                Arguments.of("a token beyond 64 bits", "{\"writer\":\"C\",\"token\":99999999999999999999,\"value\":\"x\"}", 400, "too large"),
                Arguments.of("no writer", "{\"token\":9,\"value\":\"x\"}", 400, "writer is missing"),
                Arguments.of("a blank writer", "{\"writer\":\" \",\"token\":9,\"value\":\"x\"}", 400, "writer must name the writer"),
                Arguments.of("a numeric writer", "{\"writer\":3,\"token\":9,\"value\":\"x\"}", 400, "writer must be a JSON string"),
                Arguments.of("no value", "{\"writer\":\"C\",\"token\":9}", 400, "value is missing"),
                Arguments.of("a null value", "{\"writer\":\"C\",\"token\":9,\"value\":null}", 400, "value must be a JSON string"),
                Arguments.of("an unknown field", "{\"writer\":\"C\",\"token\":9,\"value\":\"x\",\"force\":true}", 400, "unknown field 'force'"),
                Arguments.of("a value over 1024 characters", "{\"writer\":\"C\",\"token\":9,\"value\":\"" + "v".repeat(1025) + "\"}", 400, "value is too long"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBodies")
    @DisplayName("A bad write body gets a 4xx that says what was wrong, and changes neither mode")
    void rejectsABadWriteBodyWithAClearMessageAndChangesNothing(String what, String body, int status, String message) throws Exception {
        for (String mode : SinkServer.MODES) {
            HttpResponse<String> response = sink.post("/sinks/" + mode + "/write", body);

            assertThat(response.statusCode()).as("%s sent to %s must get %d, got %s", what, mode, status, response.body()).isEqualTo(status);
            assertThat(reply(response, SinkReply.Failure.class).error())
                    .as("the error for %s must say what was wrong", what).contains(message);
        }
        assertUnchanged(what);
    }

    @Test
    @DisplayName("A body over the limit gets 413, whether its length is declared or streamed")
    void rejectsAnOversizedBodyWith413AndChangesNothing() throws Exception {
        String big = "{\"writer\":\"C\",\"token\":9,\"value\":\"" + "v".repeat(SinkServer.MAX_BODY_BYTES) + "\"}";
        HttpResponse<String> declared = sink.post("/sinks/fenced/write", big);
        HttpResponse<String> streamed = sink.send(HttpRequest.newBuilder(sink.uri("/sinks/fenced/write"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))))
                .build());

        assertThat(declared.statusCode()).as("a %d-byte body with Content-Length must get 413, got %s", big.length(), declared.body()).isEqualTo(413);
        assertThat(streamed.statusCode()).as("a %d-byte chunked body must get 413, got %s", big.length(), streamed.body()).isEqualTo(413);
        assertThat(reply(declared, SinkReply.Failure.class).error()).as("the 413 says the limit").contains("at most " + SinkServer.MAX_BODY_BYTES + " bytes");
        assertUnchanged("an oversized body");
    }

    @Test
    void rejectsAnUnknownModeWith404() throws Exception {
        HttpResponse<String> write = sink.post("/sinks/leased/write", "{\"writer\":\"C\",\"token\":9,\"value\":\"x\"}");
        HttpResponse<String> read = sink.get("/sinks/leased");

        assertThat(write.statusCode()).as("a write to mode 'leased' must get 404, got %s", write.body()).isEqualTo(404);
        assertThat(read.statusCode()).as("a read of mode 'leased' must get 404, got %s", read.body()).isEqualTo(404);
        assertThat(reply(write, SinkReply.Failure.class).error()).as("the 404 names the unknown mode and the known ones")
                .contains("unknown mode 'leased'").contains("plain and fenced");
        assertUnchanged("a write to an unknown mode");
    }

    @Test
    void rejectsAnUnknownPathWith404() throws Exception {
        for (String path : new String[] {"/", "/sinks", "/sinks/fenced/writes", "/sinks/fenced/write/again", "/writes"}) {
            HttpResponse<String> response = sink.post(path, "{\"writer\":\"C\",\"token\":9,\"value\":\"x\"}");

            assertThat(response.statusCode()).as("POST %s must get 404, got %s", path, response.body()).isEqualTo(404);
            assertThat(reply(response, SinkReply.Failure.class).error()).as("the 404 for %s names the path", path).contains("no such path: " + path);
        }
        assertUnchanged("writes to unknown paths");
    }

    @Test
    @DisplayName("A wrong method gets 405 with the allowed one, and changes nothing")
    void rejectsAWrongMethodWith405NamingTheAllowedOne() throws Exception {
        HttpResponse<String> getWrite = sink.get("/sinks/fenced/write");
        HttpResponse<String> putWrite = sink.send("PUT", "/sinks/fenced/write", "{\"writer\":\"C\",\"token\":9,\"value\":\"x\"}");
        HttpResponse<String> postRead = sink.post("/sinks/fenced", "{\"writer\":\"C\",\"token\":9,\"value\":\"x\"}");
        HttpResponse<String> delete = sink.send("DELETE", "/sinks/plain", null);

        assertThat(getWrite.statusCode()).as("GET on the write path must get 405, got %s", getWrite.body()).isEqualTo(405);
        assertThat(getWrite.headers().firstValue("Allow")).as("the 405 says POST is allowed").contains("POST");
        assertThat(putWrite.statusCode()).as("PUT on the write path must get 405, got %s", putWrite.body()).isEqualTo(405);
        assertThat(postRead.statusCode()).as("POST on the read path must get 405, got %s", postRead.body()).isEqualTo(405);
        assertThat(postRead.headers().firstValue("Allow")).as("the 405 says GET is allowed").contains("GET");
        assertThat(delete.statusCode()).as("DELETE must get 405, got %s", delete.body()).isEqualTo(405);
        assertUnchanged("wrong methods");
    }

    @Test
    void rejectsANonJsonContentTypeWith415() throws Exception {
        HttpResponse<String> response = sink.send(HttpRequest.newBuilder(sink.uri("/sinks/fenced/write"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("{\"writer\":\"C\",\"token\":9,\"value\":\"x\"}"))
                .build());

        assertThat(response.statusCode()).as("a form-encoded write must get 415, got %s", response.body()).isEqualTo(415);
        assertThat(reply(response, SinkReply.Failure.class).error()).as("the 415 says what to send").contains("application/json");
        assertUnchanged("a form-encoded write");
    }

    @Test
    void offersNoControlPathsWithTheFencedSink() throws Exception {
        HttpResponse<String> response = sink.post("/control/hold-next-write", "");

        assertThat(response.statusCode()).as("only the broken teaching sink can be held; got %s", response.body()).isEqualTo(404);
        assertThat(reply(response, SinkReply.Failure.class).error()).as("the 404 says why").contains("runs FencedSink");
    }

    private void assertUnchanged(String what) throws Exception {
        assertThat(sink.fencedFile()).as("after %s the fenced file must still hold B's write", what).isEqualTo(SeededSinkServer.SEEDED);
        assertThat(sink.plainFile().value()).as("after %s the plain file must still hold B's write", what).isEqualTo("B-current");
        SinkReply.ModeState served = reply(sink.get("/sinks/fenced"), SinkReply.ModeState.class);
        assertThat(served.value() + "@" + served.highWaterMark())
                .as("after %s the server must still serve B's write", what).isEqualTo("B-current@8");
    }
}
