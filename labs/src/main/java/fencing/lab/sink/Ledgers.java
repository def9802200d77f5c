package fencing.lab.sink;

import com.sun.net.httpserver.HttpExchange;
import fencing.lab.common.Times;
import fencing.sink.ConnectionSource;
import fencing.sink.IdempotentLedger;
import fencing.sink.RequestResult;
import fencing.support.evidence.SinkReply;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The sink server's two ledgers and the lost-response switch.
 *
 * <p>{@code fenced-counter} is the lab's {@link FencedCounter} ({@code counter.db}), {@code idempotent} the student's
 * {@link IdempotentLedger} ({@code ledger.db}). Paths: {@code POST /ledgers/{ledger}/add} with
 * {@code {"writer": "B", "token": 8, "requestId": "B-1", "amount": 5}}, {@code GET /ledgers/{ledger}}, and
 * {@code POST /control/lose-first-response/{requestId}}: the next request with that id is applied by each
 * ledger, and its answer is lost (the connection closes with no response), so that the client retries.
 */
final class Ledgers {

    /** The ledgers, in the order the lab reads them. */
    static final List<String> NAMES = List.of("fenced-counter", "idempotent");
    static final String SHAPE = "{\"writer\": ..., \"token\": ..., \"requestId\": ..., \"amount\": ...}";
    private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9._-]{1," + LedgerRequest.MAX_REQUEST_ID_CHARS + "}");

    private final FencedCounter counter;
    private final IdempotentLedger idempotent;
    /** The idempotent ledger's file, read as the lab's counter reads its own: the same table. */
    private final FencedCounter idempotentFile;
    private final Set<String> toLose = new HashSet<>();
    private final Set<String> lost = new HashSet<>();

    Ledgers(Path dir) {
        this.counter = new FencedCounter(ConnectionSource.sqlite(dir.resolve("counter.db")));
        ConnectionSource ledgerFile = ConnectionSource.sqlite(dir.resolve("ledger.db"));
        this.idempotentFile = new FencedCounter(ledgerFile);
        this.idempotent = new IdempotentLedger(ledgerFile);
    }

    /** Returns the class behind each ledger, by name. */
    Map<String, String> implementations() {
        Map<String, String> names = new LinkedHashMap<>();
        names.put("fenced-counter", counter.getClass().getName());
        names.put("idempotent", idempotent.getClass().getName());
        return names;
    }

    /** Runs each ledger's code once on scratch files in {@code scratch}; returns what is not implemented yet. */
    static List<String> warmUp(Path scratch) {
        Ledgers ledgers = new Ledgers(scratch);
        ledgers.counter.add(1, "warm-up", 1);
        try {
            ledgers.idempotent.add(1, "warm-up", 1);
            ledgers.idempotent.total();
            return List.of();
        } catch (UnsupportedOperationException notYet) {
            return List.of("IdempotentLedger: " + notYet.getMessage());
        }
    }

    /** Answers {@code /ledgers/...}; {@code parts} is the path split at {@code /}. */
    Reply route(HttpExchange exchange, String[] parts) throws IOException {
        String method = exchange.getRequestMethod();
        String name = parts[2];
        if (!NAMES.contains(name)) {
            throw new BadRequest(404, "unknown ledger '" + name + "': this server has the ledgers " + String.join(" and ", NAMES));
        }
        if (parts.length == 3) {
            SinkServer.requireMethod(method, "GET");
            return Reply.ok(state(name));
        }
        if (parts.length != 4 || !parts[3].equals("add")) {
            throw new BadRequest(404, "no such path: " + exchange.getRequestURI().getRawPath() + " (use GET /ledgers/{ledger} or POST /ledgers/{ledger}/add;"
                    + " ledgers: " + String.join(", ", NAMES) + ")");
        }
        SinkServer.requireMethod(method, "POST");
        LedgerRequest request = WriteRequests.parseLedger(Bodies.read(exchange, SHAPE));
        RequestResult result = name.equals("fenced-counter") ? counter.add(request.token(), request.requestId(), request.amount())
                : idempotent.add(request.token(), request.requestId(), request.amount());
        if (loseThisOnce(name, request.requestId())) {
            return Reply.LOST;
        }
        return Reply.ok(verdict(name, request, result));
    }

    /** Answers {@code POST /control/lose-first-response/{requestId}}. */
    Reply loseFirstResponse(String method, String requestId) {
        SinkServer.requireMethod(method, "POST");
        if (!REQUEST_ID.matcher(requestId).matches()) {
            throw new BadRequest(400, "a request id here is 1 to " + LedgerRequest.MAX_REQUEST_ID_CHARS
                    + " letters, digits, '.', '_' or '-', got '" + requestId + "'");
        }
        synchronized (this) {
            toLose.add(requestId);
        }
        return Reply.ok(new SinkReply.Losing(requestId, "the first answer of each ledger to request " + requestId));
    }

    private synchronized boolean loseThisOnce(String ledger, String requestId) {
        return toLose.contains(requestId) && lost.add(ledger + "/" + requestId);
    }

    private SinkReply.LedgerState state(String name) {
        boolean counted = name.equals("fenced-counter");
        // IdempotentLedger tells its total only; its mark is read from its file, in the table ConnectionSource.sqlite made.
        RequestResult stored = counted ? counter.read() : idempotentFile.read();
        return new SinkReply.LedgerState(name, simpleName(name), counted ? stored.total() : idempotent.total(), stored.highWaterMark());
    }

    private SinkReply.LedgerVerdict verdict(String name, LedgerRequest request, RequestResult result) {
        long decided = Times.nowMicros();
        return new SinkReply.LedgerVerdict(name, simpleName(name), request.writer(), request.token(), request.requestId(), request.amount(),
                result.duplicate() ? "duplicate" : result.accepted() ? "accepted" : "rejected", result.accepted(), result.duplicate(),
                new SinkReply.LedgerAfter(result.total(), result.highWaterMark()), decided, Times.iso(decided));
    }

    private String simpleName(String ledger) {
        return implementations().get(ledger).replaceAll(".*\\.", "");
    }
}
