package fencing.lab.run;

import com.fasterxml.jackson.databind.JsonNode;
import fencing.lab.common.Times;
import fencing.support.evidence.Evidence.Kind;
import fencing.support.evidence.Evidence.Lane;
import fencing.lab.sink.Exchange;
import fencing.lab.sink.SinkClient;
import fencing.lab.worker.WorkerCommand;
import fencing.lab.worker.WorkerReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

/** The steps of the forged and retry cases: C's made-up token, and B's ledger requests whose first answer is lost. */
final class RequestSteps {

    static final String FORGED = "C-forged";
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(15);

    private final Prepared prepared;
    private final Events events;
    private final List<Exchange> calls;
    private final SinkClient asB;
    private final SinkClient asRunner;
    private final LongSupplier bToken;
    private final BiConsumer<String, Object[]> progress;

    RequestSteps(Prepared prepared, Events events, List<Exchange> calls, LongSupplier bToken, BiConsumer<String, Object[]> progress) {
        this.prepared = prepared;
        this.events = events;
        this.calls = calls;
        this.asB = new SinkClient(prepared.sinkUri(), "B");
        this.asRunner = new SinkClient(prepared.sinkUri(), "runner");
        this.bToken = bToken;
        this.progress = progress;
    }

    /** Waits until C, where the case has one, is connected and ready. */
    void awaitStarted() {
        if (prepared.forger != null) {
            prepared.forger.await(WorkerReport.Started.class, RepeatRun.START_TIMEOUT);
        }
    }

    void forgedWrite(List<String> modes) {
        if (prepared.forger == null) {
            throw new IllegalStateException("this case started no writer C: its forgesToken() is false");
        }
        prepared.forger.send(new WorkerCommand.Write(FORGED, modes));
        WorkerReport.Wrote wrote = prepared.forger.await(WorkerReport.Wrote.class, STEP_TIMEOUT);
        List<Exchange> writes = new ArrayList<>();
        for (WorkerReport report : prepared.forger.seen()) {
            if (report instanceof WorkerReport.Called called && called.exchange().isWrite()) {
                Exchange write = called.exchange();
                Calls.requireOk(write, "C's forged write to " + write.mode());
                writes.add(write);
                events.add(Lane.C, Kind.FORGED_WRITE, write.receivedAtMicros(), FORGED + " → " + write.mode() + ": " + write.verdict(),
                        "token " + wrote.token() + ", made up: C never held the lock", wrote.token(), write.mode(), write.verdict());
            }
        }
        progress.accept("C (pid %d), which never held the lock, wrote %s with the made-up token %d: %s",
                new Object[] {prepared.forger.pid(), FORGED, wrote.token(), Calls.verdicts(writes)});
    }

    void loseFirstResponse(String requestId) {
        Exchange arm = asRunner.call("POST", "/control/lose-first-response/" + requestId, null);
        calls.add(arm);
        Calls.requireOk(arm, "arming the lost response");
        progress.accept("the sink server will apply request %s and lose its first answer from each ledger", new Object[] {requestId});
    }

    void addB(String requestId, long amount, List<String> ledgers) {
        long token = bToken.getAsLong();
        List<String> said = new ArrayList<>();
        for (String ledger : ledgers) {
            Exchange first = asB.add(ledger, "B", token, requestId, amount);
            calls.add(first);
            Exchange answered = first;
            if (first.isLost()) {
                events.add(Lane.B, Kind.RESPONSE_LOST, first.receivedAtMicros(), requestId + " → " + ledger + ": no response",
                        "the sink applied the request and closed the connection without answering (" + first.error() + ")",
                        token, ledger, null);
                events.add(Lane.B, Kind.RETRIED, Times.nowMicros(), "retries " + requestId, "the same request id, token and amount",
                        token, ledger, null);
                answered = asB.add(ledger, "B", token, requestId, amount);
                calls.add(answered);
            }
            Calls.requireOk(answered, "B's request " + requestId + " to " + ledger);
            said.add(ledger + " " + (first.isLost() ? "lost, then " : "") + answered.verdict() + " (total "
                    + answered.response().path("after").path("total").asLong() + ")");
        }
        progress.accept("B sent request %s (+%d, token %d): %s", new Object[] {requestId, amount, token, String.join(", ", said)});
    }

    /** Adds a timeline event for each ledger's answer in {@code calls}. */
    static void ledgerVerdicts(List<Exchange> calls, Events events) {
        for (Exchange call : calls) {
            if (call.isLedgerAdd() && call.status() == 200) {
                JsonNode r = call.response();
                String verdict = r.get("verdict").asText();
                long total = r.path("after").path("total").asLong();
                events.add(Lane.SINK, Kind.LEDGER_VERDICT, call.decidedAtMicros(), call.mode() + ": " + r.get("requestId").asText() + " (+"
                                + r.get("amount").asLong() + ", token " + r.get("token").asLong() + ") " + verdict + ", total " + total,
                        call.from() + "'s request; after it the ledger's total is " + total + " and its mark "
                                + r.path("after").path("highWaterMark").asLong(), r.get("token").asLong(), call.mode(), verdict, total, null,
                        r.path("after").path("highWaterMark").asLong(), call.from());
            }
        }
    }
}
