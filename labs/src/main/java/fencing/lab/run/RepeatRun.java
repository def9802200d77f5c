package fencing.lab.run;

import fencing.lab.sink.Mode;
import fencing.etcd.Ownership;
import fencing.lab.common.Times;
import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;
import fencing.lab.sink.Exchange;
import fencing.lab.sink.SinkClient;
import fencing.lab.sink.SinkReport;
import fencing.lab.worker.WorkerCommand;
import fencing.lab.worker.WorkerReport;
import fencing.support.Etcd;
import fencing.support.EtcdCluster;
import fencing.support.RestorableEtcd;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.LeaseOption;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/** One repeat of a case: A acquires and freezes (or runs on, cut off from etcd or trusting its own timer), its lease expires, B acquires, and the case's steps run on the {@link Stage}. */
public final class RepeatRun {

    public static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(15);

    private final CaseToRun toRun;
    private final Client client;
    private final long ttlSeconds;
    private final PrintWriter out;
    private final Prepared prepared;
    private final int repeats;
    private final Journal journal = new Journal();
    private final SinkClient asRunner;
    private final Lineage lineage;
    private HolderB holderB;
    private EtcdCluster cluster;

    /** Prepares repeat {@code prepared.repeat} of {@code repeats}, printing its progress to {@code out}. */
    public RepeatRun(CaseToRun toRun, Client client, long ttlSeconds, PrintWriter out, Prepared prepared, int repeats) {
        this(toRun, client, null, ttlSeconds, out, prepared, repeats);
    }

    /** Prepares a repeat on {@code etcd}, which the case may snapshot and restore ({@code null} when it may not). */
    public RepeatRun(CaseToRun toRun, Client client, RestorableEtcd etcd, long ttlSeconds, PrintWriter out, Prepared prepared, int repeats) {
        this.toRun = toRun;
        this.client = client;
        this.ttlSeconds = ttlSeconds;
        this.out = out;
        this.prepared = prepared;
        this.repeats = repeats;
        this.asRunner = new SinkClient(prepared.sinkUri(), "runner");
        this.lineage = new Lineage(etcd, client, prepared, ttlSeconds, journal, this::progress);
    }

    /** Gives the repeat the study's own cluster, whose leader a case that {@link LabCase#failsOverLeader} kills; returns this. */
    public RepeatRun onCluster(EtcdCluster cluster) {
        this.cluster = cluster;
        return this;
    }

    /**
     * Runs the repeat and returns its evidence; {@code whenTimed} runs once the repeat's timed part is over.
     *
     * @throws LabProcess.ChildFailed if a process failed or said nothing in time
     * @throws IllegalStateException  if etcd, the sink or a signal failed
     */
    public Evidence.Repeat run(Runnable whenTimed) {
        LabProcess<WorkerReport> worker = prepared.worker;
        // The sink first: worker A waits for it before it says Started, so a sink that failed to start is named as such.
        prepared.sink().await(SinkReport.Listening.class, START_TIMEOUT);
        WorkerReport.Started started = worker.await(WorkerReport.Started.class, START_TIMEOUT);
        Calls.requireOk(asRunner.call("GET", "/health", null), "the sink server's health");
        if (prepared.forger != null) {
            prepared.forger.await(WorkerReport.Started.class, START_TIMEOUT);
        }
        ByteSequence key = ByteSequence.from(prepared.key, StandardCharsets.UTF_8);
        holderB = new HolderB(client, prepared.key, ttlSeconds, journal);
        ExpiryWatch watch = null;
        LeaderFault fault = null;
        Evidence.Holder aHolder;
        Evidence.Holder bHolder;
        Evidence.Expiry expiry;
        long stopAt;
        long end;
        boolean finished = false;
        out.printf(Locale.ROOT, "%nrepeat %d/%d · %s · lock key %s%n", prepared.repeat, repeats, toRun.labCase().name(), prepared.key);
        journal.start(Times.nowMicros());
        try {
            AHolds holds = AHolds.of(toRun.labCase());
            worker.send(holds == AHolds.UNRENEWED ? new WorkerCommand.AcquireTimed(toRun.modes(), toRun.labCase().aClockRate().getAsDouble())
                    : new WorkerCommand.Acquire(toRun.modes()));
            WorkerReport.Ready ready = worker.await(WorkerReport.Ready.class, STEP_TIMEOUT);
            aHolder = holder(Holder.A, ready.token(), ready.leaseId(), ready.acquiredAtMicros(), worker.pid());
            journal.add(Lane.A, EventKind.ACQUIRED, ready.acquiredAtMicros(), "acquires token " + ready.token(),
                    "EtcdLockService.tryAcquire: lease " + Calls.hex(ready.leaseId()) + ", TTL " + ttlSeconds + " s", Evidence.About.token(ready.token()));
            journal.add(Lane.ETCD, EventKind.KEY_CREATED, ready.acquiredAtMicros(), "key created, rev " + ready.token(),
                    "the lock key, attached to A's lease " + Calls.hex(ready.leaseId()), Evidence.About.token(ready.token()));
            journal.add(Lane.A, EventKind.READY, ready.readyAtMicros(), "READY", holds.ready);
            progress("A (pid %d) took the lock: token %d, lease %s, TTL %d s; %s and said READY", worker.pid(), ready.token(),
                    Calls.hex(ready.leaseId()), ttlSeconds, holds != AHolds.UNRENEWED ? "it keeps the lease alive"
                            : String.format(Locale.ROOT, "it does not renew the lease, and times it on a clock at %s× the machine's",
                                    toRun.labCase().aClockRate().getAsDouble()));

            watch = new ExpiryWatch(client, key, ready.token(), ttlSeconds);
            long lastKeepAlive;
            if (holds == AHolds.UNRENEWED) {
                // Nothing stops A: its lease was granted once and is never renewed, so it runs out a TTL after the grant.
                lastKeepAlive = ready.acquiredAtMicros();
                stopAt = ready.acquiredAtMicros();
            } else {
                lastKeepAlive = ExpiryWatch.lastKeepAlive(worker, ready.firstKeepAliveAtMicros(), Long.MAX_VALUE);
                stopAt = Times.nowMicros();
                if (holds == AHolds.FROZEN) {
                    worker.freeze();
                    journal.add(Lane.A, EventKind.FROZEN, stopAt, "SIGSTOP", "frozen: its keepalives stop, and it still believes it holds the lock");
                } else {
                    prepared.cutAFromEtcd();
                    journal.add(Lane.A, EventKind.CUT_OFF, stopAt, "cut off from etcd", "its path to etcd is cut at the kit's loopback bridge and"
                            + " its path to the sink left open: it runs on, its keepalives go unanswered, and it still believes it holds the lock");
                }
            }
            long ttlLeft = Etcd.await(client.getLeaseClient().timeToLive(ready.leaseId(), LeaseOption.DEFAULT)).getTTL();
            journal.add(Lane.ETCD, EventKind.LEASE_TTL_LEFT, Times.nowMicros(), "lease: " + ttlLeft + " s left", holds.ttlSample);
            switch (holds) {
                case FROZEN -> progress("A frozen with SIGSTOP; its last keepalive was %s before, and etcd says its lease has %d s left",
                        Times.seconds(stopAt - lastKeepAlive), ttlLeft);
                case CUT_OFF -> progress("A cut off from etcd, its path to the sink left open; its last keepalive was answered %s before,"
                        + " and etcd says its lease has %d s left", Times.seconds(stopAt - lastKeepAlive), ttlLeft);
                case UNRENEWED -> progress("A is not frozen: it runs on, and etcd says its lease has %d s left", ttlLeft);
            }
            if (toRun.labCase().failsOverLeader()) {
                fault = new LeaderFault(cluster, client, ready.leaseId(), ttlSeconds, journal, this::progress);
                fault.strike(key, stopAt, lastKeepAlive);
            }
            expiry = watch.await(holds, stopAt, lastKeepAlive, ttlLeft, this::progress);
            journal.add(Lane.ETCD, EventKind.KEY_DELETED, expiry.observedAtMicros(),
                    "lease expired: key deleted" + (expiry.deleteRevision() == null ? "" : ", rev " + expiry.deleteRevision()),
                    "seen by the " + expiry.observedBy() + " " + expiry.waitAfterStopMillis() + " ms after " + holds.since);
            if (fault != null) {
                fault.keyGone(expiry.observedAtMicros());
            }

            Ownership b = holderB.acquire();
            long bAcquiredAt = Times.nowMicros();
            bHolder = holder(Holder.B, b.token(), b.leaseId(), bAcquiredAt, null);
            journal.add(Lane.B, EventKind.ACQUIRED, bAcquiredAt, "acquires token " + b.token(), "EtcdLockService.tryAcquire: lease " + Calls.hex(b.leaseId()),
                    Evidence.About.token(b.token()));
            journal.add(Lane.ETCD, EventKind.KEY_CREATED, bAcquiredAt, "key created, rev " + b.token(),
                    "the lock key again, attached to B's lease " + Calls.hex(b.leaseId()), Evidence.About.token(b.token()));
            progress("B took the lock: token %d (larger than A's %d), lease %s", b.token(), ready.token(), Calls.hex(b.leaseId()));

            Stage stage = new Stage(toRun, prepared, journal, holderB, lineage, client, this::progress);
            for (Step step : toRun.labCase().steps()) {
                step.run(stage);
            }

            for (Mode mode : toRun.modes()) {
                Exchange read = asRunner.read(mode);
                journal.exchange(read);
                Calls.requireOk(read, "the final read of " + mode);
            }
            for (String ledger : toRun.labCase().ledgers()) {
                Exchange read = asRunner.readLedger(ledger);
                journal.exchange(read);
                Calls.requireOk(read, "the final read of " + ledger);
            }
            end = Times.nowMicros();
            finished = true;
            whenTimed.run();
        } finally {
            try {
                try {
                    lineage.close();
                } finally {
                    if (fault != null) {
                        fault.close();
                    }
                }
            } finally {
                new Teardown(prepared, journal).run(watch, holderB, finished);
            }
        }
        long lastBeforeStop = ExpiryWatch.lastKeepAlive(worker, expiry.lastKeepAliveMicros(), stopAt);
        Reported.append(journal, prepared, AHolds.of(toRun.labCase()));
        return new Judge(toRun, prepared, ttlSeconds, journal).evidence(started, aHolder, bHolder, expiry.withLastKeepAlive(lastBeforeStop),
                stopAt, end);
    }

    private void progress(String format, Object... args) {
        out.printf(Locale.ROOT, "  %6s  %s%n", "+" + String.format(Locale.ROOT, "%.2f", (Times.nowMicros() - journal.start()) / 1e6),
                String.format(Locale.ROOT, format, args));
        out.flush();
    }

    private Evidence.Holder holder(Holder owner, long token, long leaseId, long acquiredAt, Long pid) {
        return new Evidence.Holder(owner.name(), token, leaseId, Calls.hex(leaseId), acquiredAt, Times.millis(acquiredAt - journal.start()), pid);
    }
}
