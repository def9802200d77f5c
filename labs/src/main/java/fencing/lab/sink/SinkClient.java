package fencing.lab.sink;

import com.fasterxml.jackson.core.JsonProcessingException;
import fencing.lab.common.Json;
import fencing.lab.common.Times;
import fencing.support.evidence.SinkReply;
import fencing.support.evidence.SinkRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** The sink server's client, used by worker A and by the runner; it records every call as an {@link Exchange}. */
public final class SinkClient {

    /** Longer than the server's hold limit, so that a held write ends on the server's terms. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);
    /**
     * As long as a request may take, and longer than the chaos nemesis's longest freeze at the default TTL (3 TTLs, 6 s).
     *
     * <p>A connection to the loopback server is made at once or refused at once; the only connection that takes long is
     * one whose client was frozen with SIGSTOP in the middle of it, and its timer, counting the freeze, must not fire
     * before the connection it was waiting for is seen: that write would go down as answered by no one.
     */
    private static final Duration CONNECT_TIMEOUT = REQUEST_TIMEOUT;

    /** One client per process: its connection machinery starts once, before any repeat's clock runs. */
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).version(HttpClient.Version.HTTP_1_1).build();

    private static final ExecutorService WRITERS = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "sink-writer");
        thread.setDaemon(true);
        return thread;
    });

    private final URI base;
    private final String from;

    /** Creates a client of the server at {@code base} that records its calls as sent by {@code from}. */
    public SinkClient(URI base, String from) {
        this.base = base;
        this.from = from;
    }

    /** Offers a write to {@code mode} as {@code writer} with {@code token}. */
    public Exchange write(Mode mode, String writer, long token, String value) {
        return send("POST", "/sinks/" + mode.text() + "/write", mode, null, new SinkRequest.Write(writer, token, value));
    }

    /**
     * Offers the same write to each of {@code modes} at once, and returns the exchanges in the order of {@code modes}.
     *
     * <p>The modes are separate SQLite files, so neither write waits for the other; sent together,
     * their two commits overlap instead of adding up.
     */
    public List<Exchange> writeAll(List<Mode> modes, String writer, long token, String value) {
        List<CompletableFuture<Exchange>> calls = new ArrayList<>();
        for (Mode mode : modes) {
            calls.add(CompletableFuture.supplyAsync(() -> write(mode, writer, token, value), WRITERS));
        }
        List<Exchange> exchanges = new ArrayList<>();
        for (CompletableFuture<Exchange> call : calls) {
            exchanges.add(call.join());
        }
        return exchanges;
    }

    /** Offers request {@code requestId} to add {@code amount} to {@code ledger}, as {@code writer} with {@code token}. */
    public Exchange add(String ledger, String writer, long token, String requestId, long amount) {
        return send("POST", "/ledgers/" + ledger + "/add", null, ledger, new SinkRequest.LedgerAdd(writer, token, requestId, amount));
    }

    /** Reads the state of {@code mode}. */
    public Exchange read(Mode mode) {
        return send("GET", "/sinks/" + mode.text(), mode, null, null);
    }

    /** Reads the state of {@code ledger}. */
    public Exchange readLedger(String ledger) {
        return send("GET", "/ledgers/" + ledger, null, ledger, null);
    }

    /** Sends one request to a path of no mode and no ledger, such as {@code /health} or a control path, and records it. */
    public Exchange call(String method, String path, SinkRequest body) {
        return send(method, path, null, null, body);
    }

    // The caller names the mode or ledger, so that the exchange carries it rather than a reader parsing the path for it.
    private Exchange send(String method, String path, Mode mode, String ledger, SinkRequest body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(REQUEST_TIMEOUT);
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(Json.compact(body)));
        }
        long sent = Times.nowMicros();
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            long received = Times.nowMicros();
            try {
                SinkReply reply = Json.MAPPER.readValue(response.body(), SinkReply.class);
                return new Exchange(from, method, path, mode, ledger, body, response.statusCode(), reply, null, sent, received);
            } catch (JsonProcessingException notAReply) {
                // Whatever answered is not the sink, or not this kit's: the exchange says so, as it says that no response came.
                return new Exchange(from, method, path, mode, ledger, body, response.statusCode(), null, "the body is no answer of the sink's: "
                        + notAReply.getOriginalMessage().lines().findFirst().orElse("") + " (" + abbreviated(response.body()) + ")", sent, received);
            }
        } catch (IOException e) {
            return new Exchange(from, method, path, mode, ledger, body, -1, null, e.toString(), sent, Times.nowMicros());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling the sink at " + base + path, e);
        }
    }

    private static String abbreviated(String body) {
        return body.length() <= 200 ? body : body.substring(0, 200) + "...";
    }
}
