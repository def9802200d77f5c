package fencing.lab.run;

import fencing.lab.common.Times;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;
import fencing.lab.worker.WorkerCommand;
import fencing.lab.worker.WorkerReport;
import java.time.Duration;

/** Ends a repeat: the watch, B's keepalive and lock, worker A and the sink server, whatever failed on the way. */
final class Teardown {

    private final Prepared prepared;
    private final Journal journal;

    Teardown(Prepared prepared, Journal journal) {
        this.prepared = prepared;
        this.journal = journal;
    }

    /** Stops everything, then throws the first failure with the others suppressed. */
    void run(ExpiryWatch watch, HolderB holderB, boolean finished) {
        RuntimeException failure = null;
        try {
            if (watch != null) {
                watch.close();
            }
            if (holderB != null) {
                holderB.release();
            }
            if (finished) {
                if (prepared.worker.frozen()) {
                    // A case that never lets A write leaves it frozen; it must run to hear that it should exit.
                    prepared.worker.resume();
                    journal.add(Lane.A, EventKind.RESUMED, Times.nowMicros(), "SIGCONT (case over)", "resumed only to be told to exit; it writes nothing");
                }
                prepared.worker.send(new WorkerCommand.Exit());
                prepared.worker.await(WorkerReport.Bye.class, Duration.ofSeconds(5));
            }
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            try {
                prepared.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
