package fencing.lab.run;

import fencing.lab.sink.Exchange;
import fencing.lab.worker.WorkerReport;
import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;
import fencing.support.evidence.SinkReply;

/**
 * What the repeat's other processes reported, appended to its journal once they are done: A's and C's calls to the
 * sink and A's lease events from the workers' reports, and each verdict the sink server gave, from its answers.
 */
final class Reported {

    private Reported() {
    }

    /** Appends the workers' reports and the sink's verdicts to {@code journal}, once, after the repeat's steps. */
    static void append(Journal journal, Prepared prepared, AHolds holds) {
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
                journal.add(Lane.A, EventKind.KEEPALIVE, k.atMicros(), "keepalive", "etcd renewed A's lease to " + k.ttl() + " s");
            } else if (report instanceof WorkerReport.LeaseLost lost) {
                journal.add(Lane.A, EventKind.LEASE_LOST, lost.atMicros(), "learns its lease is gone", lost.error());
            } else if (report instanceof WorkerReport.KeepAliveEnded ended) {
                journal.add(Lane.A, EventKind.KEEPALIVE_ENDED, ended.atMicros(), "keepalive gave up", holds == AHolds.CUT_OFF
                        ? "jetcd stopped keeping A's lease alive, its keepalives unanswered; A does not consult it before writing"
                        : "on waking, jetcd saw the lease's deadline had passed; A does not consult it before writing");
            }
        }
        for (Exchange call : journal.exchanges()) {
            if (call.status() != 200) {
                continue;
            }
            if (call.isWrite() && call.response() instanceof SinkReply.WriteVerdict w) {
                String value = w.after().value();
                long mark = w.after().highWaterMark();
                journal.add(Lane.SINK, EventKind.VERDICT, call.decidedAtMicros(), w.mode() + ": " + w.value() + " (token " + w.token() + ") " + w.verdict(),
                        call.from() + "'s write; after it the mode holds " + value + " with mark " + mark,
                        Evidence.About.sinkVerdict(w.token(), w.mode(), w.verdict(), value, mark, call.from()));
            } else if (call.isLedgerAdd() && call.response() instanceof SinkReply.LedgerVerdict l) {
                long total = l.after().total();
                long mark = l.after().highWaterMark();
                journal.add(Lane.SINK, EventKind.LEDGER_VERDICT, call.decidedAtMicros(), call.ledger() + ": " + l.requestId() + " (+"
                                + l.amount() + ", token " + l.token() + ") " + l.verdict() + ", total " + total,
                        call.from() + "'s request; after it the ledger's total is " + total + " and its mark " + mark,
                        Evidence.About.ledgerVerdict(l.token(), call.ledger(), l.verdict(), total, mark, call.from()));
            }
        }
    }
}
