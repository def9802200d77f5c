package fencing.lab.run.cases;

import fencing.lab.common.Times;
import fencing.lab.run.Calls;
import fencing.lab.run.Journal;
import fencing.lab.run.Stage;
import fencing.lab.run.Step;
import fencing.lab.sink.Mode;
import fencing.lab.worker.WorkerCommand;
import fencing.lab.worker.WorkerReport;
import fencing.support.Etcd;
import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;
import io.etcd.jetcd.options.LeaseOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** The slow-clock case's step: A, never frozen, consults its own lease timer and writes if the timer says the lease is valid. */
final class ClockSteps {

    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(15);

    private ClockSteps() {
    }

    /**
     * etcd is asked about A's lease, then A checks its timer and, where the timer says valid, writes {@code A-late} to each
     * of {@code modes}; the step waits for A's write, or for A's word that its timer said the lease was spent.
     *
     * <p>Run once B's write is recorded, so that A's check comes after the lease is gone whatever the machine's load:
     * the order is caused, not slept into.
     */
    record TimedWriteA(List<Mode> modes) implements Step {

        TimedWriteA(Mode... modes) {
            this(List.of(modes));
        }

        @Override
        public void run(Stage stage) {
            WorkerReport.Ready ready = stage.prepared().worker().seen().stream().filter(WorkerReport.Ready.class::isInstance)
                    .map(WorkerReport.Ready.class::cast).findFirst()
                    .orElseThrow(() -> new IllegalStateException("A never said READY, so it holds no lease to check"));
            long askedAt = Times.nowMicros();
            long ttlLeft = Etcd.await(stage.etcd().getLeaseClient().timeToLive(ready.leaseId(), LeaseOption.DEFAULT)).getTTL();
            stage.journal().etcdLease(new Journal.EtcdLease(ready.leaseId(), askedAt, ttlLeft));
            boolean gone = ttlLeft < 0;
            stage.journal().add(Lane.ETCD, gone ? EventKind.LEASE_NOT_FOUND : EventKind.LEASE_TTL_LEFT, askedAt,
                    gone ? "lease: not found" : "lease: " + ttlLeft + " s left",
                    "etcd's view of A's lease " + Calls.hex(ready.leaseId()) + ", asked just before A checks its own timer");
            stage.progress("etcd says of A's lease %s: %s", Calls.hex(ready.leaseId()), gone ? "no such lease, it expired" : ttlLeft + " s left");

            stage.prepared().worker().send(new WorkerCommand.WriteIfTimerSaysValid(OwnerSteps.LATE, stage.active(modes)));
            WorkerReport.TimerChecked checked = stage.prepared().worker().await(WorkerReport.TimerChecked.class, STEP_TIMEOUT);
            stage.journal().aTimer(checked);
            double aClock = checked.localElapsedMicros() / 1e6;
            double machine = checked.realElapsedMicros() / 1e6;
            double left = checked.ttlMillis() / 1e3 - aClock;
            stage.journal().add(Lane.A, EventKind.TIMER_CHECKED, checked.atMicros(),
                    String.format(Locale.ROOT, "own timer: %.2f s left, %s", left, checked.saysValid() ? "valid" : "spent"),
                    String.format(Locale.ROOT, "A's clock, at %s× the machine's, counted %.2f s since A asked for the lock; the machine's counted"
                            + " %.2f s. A %s", checked.clockRate(), aClock, machine, checked.saysValid() ? "writes" : "does not write"),
                    Evidence.About.token(ready.token()));
            stage.progress("A checked its own timer: its clock (%s×) counted %.2f s of the %d s TTL, the machine's %.2f s; %s",
                    checked.clockRate(), aClock, checked.ttlMillis() / 1000, machine,
                    checked.saysValid() ? "it says the lease is valid, so A writes" : "it says the lease is spent, so A does not write");
            if (checked.saysValid()) {
                WorkerReport.Wrote wrote = stage.prepared().worker().await(WorkerReport.Wrote.class, STEP_TIMEOUT);
                stage.progress("A, never frozen, wrote %s with its old token %d: %s", OwnerSteps.LATE, wrote.token(),
                        Calls.verdicts(OwnerSteps.AwaitAWrote.writes(stage)));
            }
        }
    }
}
