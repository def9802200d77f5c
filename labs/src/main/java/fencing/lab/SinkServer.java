package fencing.lab;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import fencing.sink.ConnectionSource;
import fencing.sink.FencedSink;
import fencing.sink.PlainSink;
import fencing.sink.Sink;
import fencing.sink.SinkState;
import fencing.sink.WriteResult;
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
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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
    static final int MAX_BODY_BYTES = 4096;
    static final int MAX_WRITER_CHARS = 64;
    static final int MAX_VALUE_CHARS = 1024;
    static final Duration HOLD_LIMIT = Duration.ofSeconds(10);
    static final List<String> MODES = List.of("plain", "fenced");
    private static final Set<String> WRITE_FIELDS = Set.of("writer", "token", "value");

    /** Which implementation serves the {@code fenced} mode. */
    public enum FencedVariant {
        /** The contract's {@link FencedSink}: the comparison is inside one transaction. */
        FENCED("fenced"),
        /** The broken {@link CheckOutsideTransactionSink}, with a hold the runner controls. */
        CHECK_OUTSIDE_TRANSACTION("check-outside-transaction");

        private final String label;

        FencedVariant(String label) {
            this.label = label;
        }

        /** Returns the name used on the command line and in evidence. */
        public String label() {
            return label;
        }

        static FencedVariant of(String label) {
            for (FencedVariant variant : values()) {
                if (variant.label.equals(label)) {
                    return variant;
                }
            }
            throw new IllegalArgumentException("unknown fenced sink '" + label + "': use fenced or check-outside-transaction");
        }
    }

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
        Map<String, Sink> sinks = new LinkedHashMap<>();
        sinks.put("plain", new PlainSink(ConnectionSource.sqlite(dir.resolve("plain.db"))));
        Hold hold = null;
        if (variant == FencedVariant.CHECK_OUTSIDE_TRANSACTION) {
            hold = new Hold();
            sinks.put("fenced", new CheckOutsideTransactionSink(ConnectionSource.sqlite(dir.resolve("fenced.db")), hold));
        } else {
            sinks.put("fenced", new FencedSink(ConnectionSource.sqlite(dir.resolve("fenced.db"))));
        }
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        // Several threads, so that a held write does not stop another writer from reaching the sink.
        ExecutorService executor = Executors.newFixedThreadPool(8, runnable -> {
            Thread thread = new Thread(runnable, "sink-server");
            thread.setDaemon(true);
            return thread;
        });
        List<String> notReady = warmUp(dir, sinks, variant);
        SinkServer server = new SinkServer(http, executor, sinks, hold, dir, log, notReady);
        http.createContext("/", server::handle);
        http.setExecutor(executor);
        http.start();
        return server;
    }

    /**
     * Runs each sink's code once before the first request: reads of the real files, and writes to a scratch file.
     *
     * <p>The first SQLite connection of a JVM loads the native library and the first write runs code
     * nothing ran before, which takes longer than any later call; done here, it stays out of the
     * experiment's timings. A sink that is not implemented yet is reported, not hidden: its name and
     * message go into the server's health and its first line.
     */
    private static List<String> warmUp(Path dir, Map<String, Sink> sinks, FencedVariant variant) throws IOException {
        List<String> notReady = new java.util.ArrayList<>();
        Path scratch = dir.resolve("warm-up.db");
        try {
            ConnectionSource scratchDb = ConnectionSource.sqlite(scratch);
            Map<String, Sink> scratchSinks = Map.of(
                    "plain", new PlainSink(scratchDb),
                    "fenced", variant == FencedVariant.FENCED ? new FencedSink(scratchDb) : new CheckOutsideTransactionSink(scratchDb));
            for (String mode : MODES) {
                try {
                    sinks.get(mode).read();
                    scratchSinks.get(mode).write(1, "warm-up");
                } catch (UnsupportedOperationException notYet) {
                    notReady.add(sinks.get(mode).getClass().getSimpleName() + ": " + notYet.getMessage());
                }
            }
        } finally {
            for (String suffix : List.of("", "-wal", "-shm")) {
                Files.deleteIfExists(dir.resolve("warm-up.db" + suffix));
            }
        }
        return List.copyOf(notReady);
    }

    /** Returns the port the server listens on. */
    public int port() {
        return http.getAddress().getPort();
    }

    /** Returns the server's base address, e.g. {@code http://127.0.0.1:40123}. */
    public URI uri() {
        return URI.create("http://127.0.0.1:" + port());
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
            BadRequest bad = new BadRequest(405, "method " + method + " is not allowed here: use " + allowed);
            bad.allow = allowed;
            throw bad;
        }
    }

    private WriteRequest readWrite(HttpExchange exchange) throws IOException {
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
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            JsonLocation where = e.getLocation();
            throw new BadRequest(400, "malformed JSON: " + e.getOriginalMessage().lines().findFirst().orElse("")
                    + (where == null ? "" : " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")"));
        }
        if (root == null || !root.isObject()) {
            throw new BadRequest(400, "the body must be a JSON object {\"writer\": ..., \"token\": ..., \"value\": ...}, got "
                    + (root == null ? "nothing" : root.getNodeType().toString().toLowerCase(Locale.ROOT)));
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!WRITE_FIELDS.contains(name)) {
                throw new BadRequest(400, "unknown field '" + name + "': a write has exactly writer, token and value");
            }
        }
        return new WriteRequest(text(root, "writer", MAX_WRITER_CHARS), token(root), text(root, "value", MAX_VALUE_CHARS));
    }

    private static BadRequest tooLarge(String size) {
        return new BadRequest(413, "the body is too large (" + size + "): a write is at most " + MAX_BODY_BYTES + " bytes");
    }

    private static long token(JsonNode root) {
        JsonNode token = root.get("token");
        if (token == null) {
            throw new BadRequest(400, "token is missing: a write carries its writer's fencing token, e.g. \"token\": 7");
        }
        if (!token.isNumber()) {
            throw new BadRequest(400, "token must be a JSON integer, got " + describe(token) + " " + token);
        }
        if (!token.isIntegralNumber()) {
            throw new BadRequest(400, "token must be a whole number, got " + token);
        }
        if (!token.canConvertToLong()) {
            throw new BadRequest(400, "token is too large for a 64-bit revision: " + token);
        }
        long value = token.longValue();
        if (value < 0) {
            throw new BadRequest(400, "token must not be negative, got " + value + ": tokens are etcd revisions");
        }
        return value;
    }

    private static String text(JsonNode root, String field, int maxChars) {
        JsonNode node = root.get(field);
        if (node == null) {
            throw new BadRequest(400, field + " is missing: a write has writer, token and value");
        }
        if (!node.isTextual()) {
            throw new BadRequest(400, field + " must be a JSON string, got " + describe(node) + " " + node);
        }
        String text = node.textValue();
        if (field.equals("writer") && text.isBlank()) {
            throw new BadRequest(400, "writer must name the writer, got an empty string");
        }
        if (text.length() > maxChars) {
            throw new BadRequest(400, field + " is too long: " + text.length() + " characters, at most " + maxChars);
        }
        return text;
    }

    private static String describe(JsonNode node) {
        return "a " + node.getNodeType().toString().toLowerCase(Locale.ROOT);
    }

    private ObjectNode health() {
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

    /** A validated write request. */
    record WriteRequest(String writer, long token, String value) {
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

    private static final class BadRequest extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int status;
        String allow;

        BadRequest(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    /** The injected pause of the broken sink: holds one armed write between its check and its write. */
    static final class Hold implements CheckOutsideTransactionSink.Pause {
        private boolean armed;
        private boolean holding;
        private boolean released;
        private long heldToken = -1;
        private long markSeen = -1;
        private long heldSinceMicros;
        private String ended = "";

        synchronized void arm() {
            armed = true;
            holding = false;
            released = false;
            heldToken = -1;
            markSeen = -1;
            ended = "";
        }

        @Override
        public synchronized void betweenCheckAndWrite(long token, long seen) {
            if (!armed) {
                return;
            }
            armed = false;
            holding = true;
            heldToken = token;
            markSeen = seen;
            heldSinceMicros = Times.nowMicros();
            long deadline = System.nanoTime() + HOLD_LIMIT.toNanos();
            try {
                while (!released) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        // Bounded on purpose: a runner that died must not leave a request hanging forever.
                        ended = "hold limit of " + HOLD_LIMIT.toSeconds() + " s reached";
                        break;
                    }
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ended = "interrupted";
            }
            if (ended.isEmpty()) {
                ended = "released";
            }
            holding = false;
        }

        synchronized void release() {
            released = true;
            notifyAll();
        }

        synchronized ObjectNode status() {
            ObjectNode body = Json.object();
            body.put("armed", armed);
            body.put("holding", holding);
            body.put("heldToken", heldToken);
            body.put("markSeen", markSeen);
            body.put("heldSinceMicros", heldSinceMicros);
            body.put("ended", ended);
            return body;
        }
    }

    /** Runs the server as its own process, so that it can be killed and restarted over the same files. */
    @Command(name = "sink-server", mixinStandardHelpOptions = true,
            description = "Serves the plain and fenced sinks over HTTP on loopback until killed.")
    static final class Main implements Callable<Integer> {

        @Option(names = "--dir", required = true, description = "Directory of plain.db and fenced.db.")
        Path dir;

        @Option(names = "--port", defaultValue = "0", description = "Port on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
        int port;

        @Option(names = "--fenced-sink", defaultValue = "fenced",
                description = "fenced (FencedSink) or check-outside-transaction (the broken teaching sink). Default: ${DEFAULT-VALUE}.")
        String fencedSink;

        @Override
        public Integer call() throws Exception {
            if (port < 0 || port > 65535) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--port must be 0..65535, got " + port);
            }
            FencedVariant variant;
            try {
                variant = FencedVariant.of(fencedSink);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
            }
            SinkServer server = start(dir, port, variant, System.out);
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                server.close();
                stopped.countDown();
            }, "stop sink server"));
            ObjectNode ready = server.health();
            ready.put("port", server.port());
            ready.put("startedAtMicros", Times.nowMicros());
            System.out.println("LISTENING " + Json.compact(ready));
            System.out.flush();
            stopped.await();
            return 0;
        }
    }

    /** Starts the server as a process: {@code --dir D [--port P] [--fenced-sink fenced|check-outside-transaction]}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new Main()).execute(args));
    }
}
