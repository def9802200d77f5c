package fencing.lab.run;

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
    private final Journal journal;
    private final SinkClient asB;
    private final SinkClient asRunner;
    private final LongSupplier bToken;
    private final BiConsumer<String, Object[]> progress;

    RequestSteps(Prepared prepared, Journal journal, LongSupplier bToken, BiConsumer<String, Object[]> progress) {
        this.prepared = prepared;
        this.journal = journal;
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
                journal.add(Lane.C, Kind.FORGED_WRITE, write.receivedAtMicros(), FORGED + " → " + write.mode() + ": " + write.verdict(),
                        "token " + wrote.token() + ", made up: C never held the lock", wrote.token(), write.mode(), write.verdict());
            }
        }
        progress.accept("C (pid %d), which never held the lock, wrote %s with the made-up token %d: %s",
                new Object[] {prepared.forger.pid(), FORGED, wrote.token(), Calls.verdicts(writes)});
    }

    void loseFirstResponse(String requestId) {
        Exchange arm = asRunner.call("POST", "/control/lose-first-response/" + requestId, null);
        journal.exchange(arm);
        Calls.requireOk(arm, "arming the lost response");
        progress.accept("the sink server will apply request %s and lose its first answer from each ledger", new Object[] {requestId});
    }

    void addB(String requestId, long amount, List<String> ledgers) {
        long token = bToken.getAsLong();
        List<String> said = new ArrayList<>();
        for (String ledger : ledgers) {
            Exchange first = asB.add(ledger, "B", token, requestId, amount);
            journal.exchange(first);
            Exchange answered = first;
            if (first.isLost()) {
                journal.add(Lane.B, Kind.RESPONSE_LOST, first.receivedAtMicros(), requestId + " → " + ledger + ": no response",
                        "the sink applied the request and closed the connection without answering (" + first.error() + ")",
                        token, ledger, null);
                journal.add(Lane.B, Kind.RETRIED, Times.nowMicros(), "retries " + requestId, "the same request id, token and amount",
                        token, ledger, null);
                answered = asB.add(ledger, "B", token, requestId, amount);
                journal.exchange(answered);
            }
            Calls.requireOk(answered, "B's request " + requestId + " to " + ledger);
            said.add(ledger + " " + (first.isLost() ? "lost, then " : "") + answered.verdict() + " (total "
                    + answered.response().path("after").path("total").asLong() + ")");
        }
        progress.accept("B sent request %s (+%d, token %d): %s", new Object[] {requestId, amount, token, String.join(", ", said)});
    }
}
