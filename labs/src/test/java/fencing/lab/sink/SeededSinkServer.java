package fencing.lab.sink;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.lab.common.Json;
import fencing.sink.ConnectionSource;
import fencing.sink.PlainSink;
import fencing.sink.SinkState;
import fencing.support.evidence.SinkReply;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

/** A sink server on loopback over real SQLite files in a test's directory, seeded with B's write, and raw HTTP to it. */
final class SeededSinkServer implements AutoCloseable {

    static final SinkState SEEDED = new SinkState("B-current", 8);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final SinkServer server;
    private final Path dir;

    private SeededSinkServer(SinkServer server, Path dir) {
        this.server = server;
        this.dir = dir;
    }

    /** Starts a server in {@code dir} and writes B-current with token 8 to both modes. */
    static SeededSinkServer start(Path dir) throws IOException, InterruptedException {
        SeededSinkServer seeded = new SeededSinkServer(
                SinkServer.start(dir, 0, FencedVariant.FENCED, new PrintStream(OutputStream.nullOutputStream())), dir);
        for (String mode : SinkServer.MODES) {
            HttpResponse<String> response = seeded.post("/sinks/" + mode + "/write", "{\"writer\":\"B\",\"token\":8,\"value\":\"B-current\"}");
            if (response.statusCode() != 200) {
                seeded.close();
                throw new IllegalStateException("seeding " + mode + " failed: " + response.body());
            }
        }
        return seeded;
    }

    /** Reads the fenced mode's file directly, not through the server: the state must be in SQLite. */
    SinkState fencedFile() {
        return new PlainSink(ConnectionSource.sqlite(dir.resolve("fenced.db"))).read();
    }

    SinkState plainFile() {
        return new PlainSink(ConnectionSource.sqlite(dir.resolve("plain.db"))).read();
    }

    URI uri(String path) {
        return server.uri().resolve(path);
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send("GET", path, null);
    }

    HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return send("POST", path, body);
    }

    HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(5));
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** Reads {@code response}'s body as the kind of reply it must be, into the record the lab's client reads it into. */
    static <T extends SinkReply> T reply(HttpResponse<String> response, Class<T> kind) throws IOException {
        SinkReply reply = Json.MAPPER.readValue(response.body(), SinkReply.class);
        assertThat(reply).as("the sink's reply %s", response.body()).isInstanceOf(kind);
        return kind.cast(reply);
    }

    @Override
    public void close() {
        server.close();
    }
}
