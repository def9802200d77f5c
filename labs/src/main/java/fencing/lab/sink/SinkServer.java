package fencing.lab.sink;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import fencing.sink.Sink;
import fencing.sink.SinkState;
import fencing.sink.WriteResult;
import fencing.lab.Json;
import fencing.lab.Times;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import picocli.CommandLine;

/**
 * The protected resource of the lab: one HTTP server on loopback over two modes of the same SQLite sink.
 *
 * <p>Mode {@code plain} is a {@link PlainSink}, mode {@code fenced} a {@link FencedSink} (or, for the
 * check-outside-transaction case, the broken {@link CheckOutsideTransactionSink}); each has its own
 * database file in the server's directory, so the mark survives the server. Paths:
 * <ul>
 *   <li>{@code POST /sinks/{mode}/write} with {@code {"writer": "A", "token": 7, "value": "A-late"}}: the
 *       verdict and the state after the call;</li>
 *   <li>{@code GET /sinks/{mode}}: the mode's value and high-water mark;</li>
 *   <li>{@code GET /health}: the server's modes and process;</li>
 *   <li>with the broken sink only, {@code POST /control/hold-next-write}, {@code GET /control/held} and
 *       {@code POST /control/release}: hold the next fenced write between its check and its write.</li>
 * </ul>
 * A bad request gets a 4xx status and a JSON body {@code {"status": ..., "error": "what was wrong"}},
 * and changes nothing.
 */
public final class SinkServer implements AutoCloseable {

    /** The largest request body accepted, in bytes. */
    public static final int MAX_BODY_BYTES = 4096;
    /** The modes every server has, in the order the lab reads them. */
    public static final List<String> MODES = List.of("plain", "fenced");

    private final HttpServer http;
    private final ExecutorService executor;
    private final Map<String, Sink> sinks;
    private final Hold hold;
    private final Path dir;
    private final PrintStream log;
    private final List<String> notReady;

    private SinkServer(HttpServer http, ExecutorService executor, Map<String, Sink> sinks, Hold hold, Path dir, PrintStream log,
                       List<String> notReady) {
        this.notReady = notReady;
        this.http = http;
        this.executor = executor;
        this.sinks = sinks;
        this.hold = hold;
        this.dir = dir;
        this.log = log;
    }

    /**
     * Starts a server on loopback over {@code dir/plain.db} and {@code dir/fenced.db}.
     *
     * @param dir     where the two database files live; created if missing
     * @param port    the port, or 0 for a free one
     * @param variant which sink serves the fenced mode
     * @param log     where one line per request goes
     */
    public static SinkServer start(Path dir, int port, FencedVariant variant, PrintStream log) throws IOException {
        Files.createDirectories(dir);
        Hold hold = variant == FencedVariant.CHECK_OUTSIDE_TRANSACTION ? new Hold() : null;
        Map<String, Sink> sinks = SinkModes.open(dir, variant, hold == null ? (token, markSeen) -> { } : hold);
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        // Several threads, so that a held write does not stop another writer from reaching the sink.
        ExecutorService executor = Executors.newFixedThreadPool(8, runnable -> {
            Thread thread = new Thread(runnable, "sink-server");
            thread.setDaemon(true);
            return thread;
        });
        List<String> notReady = SinkModes.warmUp(dir, sinks, variant);
        SinkServer server = new SinkServer(http, executor, sinks, hold, dir, log, notReady);
        http.createContext("/", server::handle);
        http.setExecutor(executor);
        http.start();
        return server;
    }

    /** Returns the port the server listens on. */
    public int port() {
        return http.getAddress().getPort();
    }

    /** Returns the server's base address, e.g. {@code http://127.0.0.1:40123}. */
    public URI uri() {
        return URI.create("http://127.0.0.1:" + port());
    }

    /** Returns the sinks that are not implemented yet, each with its message. */
    List<String> notImplementedYet() {
        return notReady;
    }

    /** Returns the class serving each mode, by mode. */
    public Map<String, String> implementations() {
        Map<String, String> names = new LinkedHashMap<>();
        sinks.forEach((mode, sink) -> names.put(mode, sink.getClass().getName()));
        return names;
    }

    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Reply reply;
            try {
                reply = route(exchange);
            } catch (BadRequest bad) {
                reply = Reply.error(bad.status, bad.getMessage());
                if (bad.allow != null) {
                    exchange.getResponseHeaders().set("Allow", bad.allow);
                }
            } catch (UnsupportedOperationException notYet) {
                notYet.printStackTrace(log);
                reply = Reply.error(501, "the sink is not implemented yet: " + notYet.getMessage());
            } catch (RuntimeException failure) {
                failure.printStackTrace(log);
                reply = Reply.error(500, "the sink failed: " + failure.getMessage()
                        + (failure.getCause() == null ? "" : " (" + failure.getCause().getMessage() + ")"));
            }
            log.println(exchange.getRequestMethod() + " " + exchange.getRequestURI().getRawPath() + " -> " + reply.status + " " + Json.compact(reply.body));
            send(exchange, reply);
        }
    }

    private Reply route(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        String method = exchange.getRequestMethod();
        String[] parts = path.split("/", -1);
        if (path.equals("/health")) {
            requireMethod(method, "GET");
            return Reply.ok(health());
        }
        if (parts.length >= 3 && parts[0].isEmpty() && parts[1].equals("sinks") && (parts.length == 3 || parts.length == 4)) {
            String mode = parts[2];
            if (parts.length == 4 && !parts[3].equals("write")) {
                throw unknownPath(path);
            }
            Sink sink = sinks.get(mode);
            if (sink == null) {
                throw new BadRequest(404, "unknown mode '" + mode + "': this server has the modes " + String.join(" and ", MODES));
            }
            if (parts.length == 3) {
                requireMethod(method, "GET");
                return Reply.ok(state(mode, sink.read()));
            }
            requireMethod(method, "POST");
            WriteRequest request = readWrite(exchange);
            WriteResult result = sink.write(request.token(), request.value());
            return Reply.ok(verdict(mode, request, result));
        }
        if (parts.length == 3 && parts[1].equals("control")) {
            if (hold == null) {
                throw new BadRequest(404, "no control paths here: this server runs " + sinks.get("fenced").getClass().getSimpleName()
                        + ", and only the check-outside-transaction sink can be held");
            }
            switch (parts[2]) {
                case "hold-next-write":
                    requireMethod(method, "POST");
                    hold.arm();
                    return Reply.ok(hold.status());
                case "held":
                    requireMethod(method, "GET");
                    return Reply.ok(hold.status());
                case "release":
                    requireMethod(method, "POST");
                    hold.release();
                    return Reply.ok(hold.status());
                default:
                    throw unknownPath(path);
            }
        }
        throw unknownPath(path);
    }

    private static BadRequest unknownPath(String path) {
        return new BadRequest(404, "no such path: " + path + " (use GET /sinks/{mode}, POST /sinks/{mode}/write or GET /health; modes: "
                + String.join(", ", MODES) + ")");
    }

    private static void requireMethod(String method, String allowed) {
        if (!method.equals(allowed)) {
            throw new BadRequest(405, "method " + method + " is not allowed here: use " + allowed, allowed);
        }
    }

    private static WriteRequest readWrite(HttpExchange exchange) throws IOException {
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        if (type != null && !type.split(";", 2)[0].trim().equalsIgnoreCase("application/json")) {
            throw new BadRequest(415, "the body must be JSON: send Content-Type: application/json, not " + type);
        }
        String declared = exchange.getRequestHeaders().getFirst("Content-Length");
        if (declared != null) {
            long length;
            try {
                length = Long.parseLong(declared.trim());
            } catch (NumberFormatException e) {
                throw new BadRequest(400, "Content-Length is not a number: " + declared);
            }
            if (length > MAX_BODY_BYTES) {
                throw tooLarge(length + " bytes");
            }
        }
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readNBytes(MAX_BODY_BYTES + 1);
        }
        if (body.length > MAX_BODY_BYTES) {
            throw tooLarge("more than " + MAX_BODY_BYTES + " bytes");
        }
        if (body.length == 0) {
            throw new BadRequest(400, "the body is empty: send a JSON object {\"writer\": ..., \"token\": ..., \"value\": ...}");
        }
        return WriteRequests.parse(body);
    }

    private static BadRequest tooLarge(String size) {
        return new BadRequest(413, "the body is too large (" + size + "): a write is at most " + MAX_BODY_BYTES + " bytes");
    }

    ObjectNode health() {
        ObjectNode body = Json.object();
        body.put("status", "ok");
        body.put("pid", ProcessHandle.current().pid());
        body.put("dir", dir.toAbsolutePath().toString());
        ObjectNode modes = body.putObject("modes");
        implementations().forEach(modes::put);
        notReady.forEach(body.putArray("notImplementedYet")::add);
        return body;
    }

    private ObjectNode state(String mode, SinkState state) {
        ObjectNode body = Json.object();
        body.put("mode", mode);
        body.put("sink", sinks.get(mode).getClass().getSimpleName());
        body.put("value", state.value());
        body.put("highWaterMark", state.highWaterMark());
        return body;
    }

    private ObjectNode verdict(String mode, WriteRequest request, WriteResult result) {
        ObjectNode body = Json.object();
        body.put("mode", mode);
        body.put("sink", sinks.get(mode).getClass().getSimpleName());
        body.put("writer", request.writer());
        body.put("token", request.token());
        body.put("value", request.value());
        body.put("verdict", result.accepted() ? "accepted" : "rejected");
        body.put("accepted", result.accepted());
        ObjectNode after = body.putObject("after");
        after.put("value", result.value());
        after.put("highWaterMark", result.highWaterMark());
        long decided = Times.nowMicros();
        body.put("decidedAtMicros", decided);
        body.put("decidedAt", Times.iso(decided));
        return body;
    }

    private static void send(HttpExchange exchange, Reply reply) throws IOException {
        byte[] bytes = Json.compact(reply.body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        // One request per connection: a client then never reuses a connection to a server that was killed.
        exchange.getResponseHeaders().set("Connection", "close");
        exchange.sendResponseHeaders(reply.status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static final class Reply {
        final int status;
        final ObjectNode body;

        private Reply(int status, ObjectNode body) {
            this.status = status;
            this.body = body;
        }

        static Reply ok(ObjectNode body) {
            return new Reply(200, body);
        }

        static Reply error(int status, String message) {
            ObjectNode body = Json.object();
            body.put("status", status);
            body.put("error", message);
            return new Reply(status, body);
        }
    }

    /** Starts the server as a process: {@code --dir D [--port P] [--fenced-sink fenced|check-outside-transaction]}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new SinkServerMain()).execute(args));
    }
}
