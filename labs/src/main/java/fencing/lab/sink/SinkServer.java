package fencing.lab.sink;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import fencing.sink.Sink;
import fencing.sink.WriteResult;
import fencing.support.evidence.SinkReply;
import fencing.lab.common.Json;
import java.io.IOException;
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
 * The protected resource of the lab: one HTTP server on loopback over the modes of the same SQLite sink, and two ledgers.
 *
 * <p>Mode {@code plain} is a {@link PlainSink}, mode {@code fenced} a {@link FencedSink} (or, for the
 * check-outside-transaction case, the broken {@link CheckOutsideTransactionSink}), and, when the server is
 * given the lab's etcd and lock key, mode {@code current-owner} an {@link fencing.sink.OwnerCheckingSink}
 * asking {@link fencing.etcd.EtcdOwnerCheck}; each has its own database file in the server's directory, so
 * the mark survives the server. Paths:
 * <ul>
 *   <li>{@code POST /sinks/{mode}/write} with {@code {"writer": "A", "token": 7, "value": "A-late"}}: the
 *       verdict and the state after the call;</li>
 *   <li>{@code GET /sinks/{mode}}: the mode's value and high-water mark;</li>
 *   <li>{@code POST /ledgers/{ledger}/add}, {@code GET /ledgers/{ledger}} and
 *       {@code POST /control/lose-first-response/{requestId}}: see {@link Ledgers};</li>
 *   <li>{@code GET /health}: the server's modes and process;</li>
 *   <li>with the broken sink only, {@code POST /control/hold-next-write}, {@code GET /control/held} and
 *       {@code POST /control/release}: hold the next fenced write between its check and its write.</li>
 * </ul>
 * A bad request gets a 4xx status and a JSON body {@code {"status": ..., "error": "what was wrong"}},
 * and changes nothing. A mode or ledger whose code is not implemented yet answers 501 with the stub's message.
 */
public final class SinkServer implements AutoCloseable {

    /** The largest request body accepted, in bytes. */
    public static final int MAX_BODY_BYTES = Bodies.MAX_BODY_BYTES;
    /** The modes every server has, in the order the lab reads them; {@code current-owner} follows when the server knows etcd. */
    public static final List<String> MODES = List.of("plain", "fenced");
    /** The mode that asks the lock service on every write. */
    public static final String CURRENT_OWNER = SinkModes.CURRENT_OWNER;
    /** The ledgers every server has, in the order the lab reads them. */
    public static final List<String> LEDGERS = Ledgers.NAMES;

    private final HttpServer http;
    private final ExecutorService executor;
    private final Map<String, Sink> sinks;
    private final Ledgers ledgers;
    private final Hold hold;
    private final EtcdOwners owners;
    private final Path dir;
    private final PrintStream log;
    private final Map<String, String> notReady;
    private final IdleConnections idle;

    private SinkServer(HttpServer http, ExecutorService executor, Map<String, Sink> sinks, Ledgers ledgers, Hold hold, EtcdOwners owners,
                       Path dir, PrintStream log, Map<String, String> notReady, IdleConnections idle) {
        this.idle = idle;
        this.http = http;
        this.executor = executor;
        this.sinks = sinks;
        this.ledgers = ledgers;
        this.hold = hold;
        this.owners = owners;
        this.dir = dir;
        this.log = log;
        this.notReady = notReady;
    }

    /** Starts a server with the modes plain and fenced; see {@link #start(Path, int, FencedVariant, EtcdOwners, PrintStream)}. */
    public static SinkServer start(Path dir, int port, FencedVariant variant, PrintStream log) throws IOException {
        return start(dir, port, variant, null, log);
    }

    /**
     * Starts a server on loopback over {@code dir/plain.db}, {@code dir/fenced.db}, the ledgers' files and, with {@code owners},
     * {@code dir/current-owner.db}.
     *
     * @param dir     where the database files live; created if missing
     * @param port    the port, or 0 for a free one
     * @param variant which sink serves the fenced mode
     * @param owners  the lab's etcd and lock key for the current-owner mode, or {@code null} for no such mode; closed with the server
     * @param log     where one line per request goes
     */
    public static SinkServer start(Path dir, int port, FencedVariant variant, EtcdOwners owners, PrintStream log)
            throws IOException {
        Files.createDirectories(dir);
        Hold hold = variant == FencedVariant.CHECK_OUTSIDE_TRANSACTION ? new Hold() : null;
        Map<String, Sink> sinks = SinkModes.open(dir, variant, hold == null ? (token, markSeen) -> { } : hold, owners == null ? null : owners.check());
        Ledgers ledgers = new Ledgers(dir);
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        // Several threads, so that a held write does not stop another writer from reaching the sink.
        ExecutorService executor = Executors.newFixedThreadPool(8, runnable -> {
            Thread thread = new Thread(runnable, "sink-server");
            thread.setDaemon(true);
            return thread;
        });
        Map<String, String> notReady = SinkModes.warmUp(dir, sinks, variant, owners == null ? null : owners.check(),
                owners == null ? null : owners.firstCheck());
        SinkServer server = new SinkServer(http, executor, sinks, ledgers, hold, owners, dir, log, notReady,
                IdleConnections.hold(dir));
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
        return SinkModes.messages(notReady);
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
        if (owners != null) {
            owners.close();
        }
        idle.close();
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
            String request = exchange.getRequestMethod() + " " + exchange.getRequestURI().getRawPath();
            if (reply == Reply.LOST) {
                // Applied, and closed with no response: the client cannot tell whether its request took effect.
                log.println(request + " -> applied; response lost on purpose (connection closed)");
                return;
            }
            log.println(request + " -> " + reply.status + " " + Json.compact(reply.body));
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
        boolean underRoot = parts.length >= 3 && parts[0].isEmpty();
        if (underRoot && parts[1].equals("ledgers") && parts.length <= 4) {
            requireReady(parts[2]);
            return ledgers.route(exchange, parts);
        }
        if (underRoot && parts[1].equals("sinks") && parts.length <= 4) {
            String mode = parts[2];
            if (parts.length == 4 && !parts[3].equals("write")) {
                throw unknownPath(path);
            }
            Sink sink = sinks.get(mode);
            if (sink == null) {
                throw new BadRequest(404, "unknown mode '" + mode + "': this server has the modes " + String.join(" and ", sinks.keySet())
                        + (mode.equals(CURRENT_OWNER) ? " (current-owner needs --etcd-endpoints and --lock-key)" : ""));
            }
            requireReady(mode);
            if (parts.length == 3) {
                requireMethod(method, "GET");
                return Reply.ok(SinkAnswers.state(mode, sink, sink.read()));
            }
            requireMethod(method, "POST");
            WriteRequest request = WriteRequests.parse(Bodies.read(exchange, "{\"writer\": ..., \"token\": ..., \"value\": ...}"));
            WriteResult result = sink.write(request.token(), request.value());
            return Reply.ok(SinkAnswers.verdict(mode, sink, request, result));
        }
        if (underRoot && parts[1].equals("control") && parts.length == 4 && parts[2].equals("lose-first-response")) {
            return ledgers.loseFirstResponse(method, parts[3]);
        }
        if (underRoot && parts[1].equals("control") && parts.length == 3) {
            return hold(method, parts[2], path);
        }
        throw unknownPath(path);
    }

    private Reply hold(String method, String action, String path) {
        if (hold == null) {
            throw new BadRequest(404, "no such control path here: this server runs " + sinks.get("fenced").getClass().getSimpleName()
                    + ", and only the check-outside-transaction sink can be held");
        }
        switch (action) {
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

    /** A mode or ledger whose code was found not implemented yet answers so, even where its sink would fail closed and hide it. */
    private void requireReady(String name) {
        String message = notReady.get(name);
        if (message != null) {
            throw new UnsupportedOperationException(message);
        }
    }

    private BadRequest unknownPath(String path) {
        return new BadRequest(404, "no such path: " + path + " (use GET /sinks/{mode}, POST /sinks/{mode}/write, GET /ledgers/{ledger},"
                + " POST /ledgers/{ledger}/add or GET /health; modes: " + String.join(", ", sinks.keySet()) + "; ledgers: "
                + String.join(", ", LEDGERS) + ")");
    }

    static void requireMethod(String method, String allowed) {
        if (!method.equals(allowed)) {
            throw new BadRequest(405, "method " + method + " is not allowed here: use " + allowed, allowed);
        }
    }

    SinkReply.Health health() {
        SinkReply.CurrentOwner etcd = owners == null ? null
                : new SinkReply.CurrentOwner(owners.endpoints(), owners.lockKey(), owners.implementation());
        return new SinkReply.Health("ok", ProcessHandle.current().pid(), dir.toAbsolutePath().toString(), implementations(),
                ledgers.implementations(), etcd, notImplementedYet());
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

    /** Starts the server as a process; see {@link SinkServerMain}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new SinkServerMain()).execute(args));
    }
}
