package fencing.lab.run;

import com.fasterxml.jackson.databind.JsonNode;
import fencing.lab.sink.Exchange;
import fencing.lab.worker.WorkerReport;
import fencing.support.evidence.Evidence.Kind;
import fencing.support.evidence.Evidence.Lane;

/**
 * What the repeat's other processes reported, appended to its journal once they are done: A's and C's calls to the
 * sink and A's lease events from the workers' reports, and each verdict the sink server gave, from its answers.
 */
final class Reported {

    private Reported() {
    }

    /** Appends the workers' reports and the sink's verdicts to {@code journal}, once, after the repeat's steps. */
    static void append(Journal journal, Prepared prepared) {
        if (prepared.forger != null) {
            for (WorkerReport report : prepared.forger.seen()) {
                if (report instanceof WorkerReport.Called called) {
                    journal.exchange(called.exchange());
                }
            }
        }
        for (WorkerReport report : prepared.worker.seen()) {
            if (report instanceof WorkerReport.Called called) {
                journal.exchange(called.exchange());
            } else if (report instanceof WorkerReport.KeepAlive k) {
                journal.add(Lane.A, Kind.KEEPALIVE, k.atMicros(), "keepalive", "etcd renewed A's lease to " + k.ttl() + " s");
            } else if (report instanceof WorkerReport.LeaseLost lost) {
                journal.add(Lane.A, Kind.LEASE_LOST, lost.atMicros(), "learns its lease is gone", lost.error());
            } else if (report instanceof WorkerReport.KeepAliveEnded ended) {
                journal.add(Lane.A, Kind.KEEPALIVE_ENDED, ended.atMicros(), "keepalive gave up",
                        "on waking, jetcd saw the lease's deadline had passed; A does not consult it before writing");
            }
        }
        for (Exchange call : journal.exchanges()) {
            if (call.status() != 200) {
                continue;
            }
            JsonNode r = call.response();
            String verdict = r.path("verdict").asText();
            long mark = r.path("after").path("highWaterMark").asLong();
            if (call.isWrite()) {
                String value = r.path("after").path("value").isNull() ? null : r.path("after").path("value").asText();
                journal.add(Lane.SINK, Kind.VERDICT, call.decidedAtMicros(), r.get("mode").asText() + ": " + r.get("value").asText()
                                + " (token " + r.get("token").asLong() + ") " + verdict,
                        call.from() + "'s write; after it the mode holds " + value + " with mark " + mark, r.get("token").asLong(),
                        r.get("mode").asText(), verdict, null, value, mark, call.from());
            } else if (call.isLedgerAdd()) {
                long total = r.path("after").path("total").asLong();
                journal.add(Lane.SINK, Kind.LEDGER_VERDICT, call.decidedAtMicros(), call.mode() + ": " + r.get("requestId").asText() + " (+"
                                + r.get("amount").asLong() + ", token " + r.get("token").asLong() + ") " + verdict + ", total " + total,
                        call.from() + "'s request; after it the ledger's total is " + total + " and its mark " + mark, r.get("token").asLong(),
                        call.mode(), verdict, total, null, mark, call.from());
            }
        }
    }
}
