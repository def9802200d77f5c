package fencing.lab.run;

import fencing.lab.sink.Mode;
import fencing.etcd.EpochLockService;
import fencing.etcd.EtcdLockService;
import fencing.etcd.Ownership;
import fencing.etcd.Recovery;
import fencing.etcd.Tokens;
import fencing.lab.common.Times;
import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;
import fencing.lab.sink.Exchange;
import fencing.support.evidence.SinkReply;
import fencing.lab.sink.SinkClient;
import fencing.lab.sink.SinkReport;
import fencing.support.Etcd;
import fencing.support.FileTrees;
import fencing.support.RestorableEtcd;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * What the restore case's steps ({@code fencing.lab.run.cases.RestoreSteps}) share and do: roll a history back, etcd's from a snapshot and the sink's from a backup, and
 * recover the epoch.
 *
 * <p>After a restore the owners use a client of their own on the restored etcd, so that nothing depends on how
 * soon the runner's client notices that etcd came back.
 */
public final class Lineage implements AutoCloseable {

    private final RestorableEtcd etcd;
    private final Client runnerClient;
    private final Prepared prepared;
    private final long ttlSeconds;
    private final Journal journal;
    private final BiConsumer<String, Object[]> progress;
    private final String epochKey;
    private Client restoredClient;
    private Path snapshot;
    private long snapshotRevision;

    Lineage(RestorableEtcd etcd, Client runnerClient, Prepared prepared, long ttlSeconds, Journal journal,
                 BiConsumer<String, Object[]> progress) {
        this.etcd = etcd;
        this.runnerClient = runnerClient;
        this.prepared = prepared;
        this.ttlSeconds = ttlSeconds;
        this.journal = journal;
        this.progress = progress;
        this.epochKey = prepared.key + "-epoch";
    }

    private RestorableEtcd etcd() {
        if (etcd == null) {
            throw new IllegalStateException("this case restores etcd, but the study runs on a shared etcd it may not stop");
        }
        return etcd;
    }

    private Client client() {
        return restoredClient != null ? restoredClient : runnerClient;
    }

    public long snapshot() {
        long revision = revision();
        snapshot = etcd().snapshot(client());
        snapshotRevision = revision;
        journal.add(Lane.ETCD, EventKind.SNAPSHOT, Times.nowMicros(), "snapshot at rev " + revision,
                "the maintenance API's snapshot of the whole keyspace, saved as " + snapshot.getFileName(), Evidence.About.token(revision));
        progress.accept("etcd snapshot taken at revision %d (%s)", new Object[] {revision, snapshot.getFileName()});
        return revision;
    }

    public long ownerWrites(String name, boolean epochTokens, List<Mode> modes) {
        Client on = client();
        EtcdLockService plainLocks = new EtcdLockService(on, prepared.key, ttlSeconds);
        EpochLockService epochLocks = new EpochLockService(on, prepared.key, epochKey, ttlSeconds);
        Ownership owner = acquire(name, epochTokens ? epochLocks::tryAcquire : plainLocks::tryAcquire);
        long at = Times.nowMicros();
        long revision = Tokens.revision(owner.token());
        String how = epochTokens ? "EpochLockService: epoch " + Tokens.epoch(owner.token()) + ", create_revision " + revision
                : "EtcdLockService: token = create_revision";
        journal.add(Lane.B, EventKind.ACQUIRED, at, name + " acquires token " + owner.token(), how, Evidence.About.token(owner.token()));
        journal.add(Lane.ETCD, EventKind.KEY_CREATED, at, "key created, rev " + revision, "the lock key, for " + name, Evidence.About.token(revision));
        List<Exchange> writes = new SinkClient(prepared.sinkUri(), name).writeAll(modes, name, owner.token(), name);
        for (Exchange write : writes) {
            journal.exchange(write);
            Calls.requireOk(write, name + "'s write to " + write.mode());
            journal.add(Lane.B, EventKind.WROTE, write.receivedAtMicros(), name + " → " + write.mode() + ": " + write.verdict(),
                    "token " + owner.token(), Evidence.About.write(owner.token(), write.mode().text(), write.reply(SinkReply.WriteVerdict.class).verdict()));
        }
        boolean released = epochTokens ? epochLocks.release(owner) : plainLocks.release(owner);
        progress.accept("%s took the lock (token %d, %s), wrote: %s; released: %s",
                new Object[] {name, owner.token(), how, Calls.verdicts(writes), released});
        return owner.token();
    }

    public void restore() {
        if (snapshot == null) {
            throw new IllegalStateException("no snapshot to restore from: take one first");
        }
        long before = revision();
        if (restoredClient != null) {
            restoredClient.close();
            restoredClient = null;
        }
        RestorableEtcd.Restored restored = etcd().restore(snapshot);
        restoredClient = etcd().newClient();
        long after = revision();
        journal.add(Lane.ETCD, EventKind.ETCD_RESTORED, Times.nowMicros(), "restored: rev " + before + " → " + after,
                restored.description() + "; etcd was down " + restored.downMillis() + " ms; its revision went back from " + before
                        + " to " + after + (restored.how() == RestorableEtcd.How.SNAPSHOT_RESTORE
                        ? " (the snapshot's " + snapshotRevision + ")" : " (an empty cluster)"), Evidence.About.token(after));
        progress.accept("etcd stopped at revision %d and brought back in %d ms: %s; its revision is now %d: it went backwards",
                new Object[] {before, restored.downMillis(), restored.description(), after});
    }

    public long recoverEpoch() {
        Exchange read = new SinkClient(prepared.sinkUri(), "runner").read(Mode.FENCED);
        journal.exchange(read);
        Calls.requireOk(read, "reading the fenced sink's mark");
        long mark = read.reply(SinkReply.ModeState.class).highWaterMark();
        long epoch = Recovery.afterRestore(client(), epochKey, mark);
        journal.add(Lane.ETCD, EventKind.EPOCH_RAISED, Times.nowMicros(), "epoch → " + epoch,
                "Recovery.afterRestore with the fenced sink's mark " + mark + " (epoch " + Tokens.epoch(mark) + ")", Evidence.About.token(mark));
        progress.accept("Recovery.afterRestore: the fenced sink's mark is %d (epoch %d); the epoch is now %d",
                new Object[] {mark, Tokens.epoch(mark), epoch});
        return epoch;
    }

    public void backUpSink() {
        Path backup = backupDir();
        try {
            FileTrees.copy(prepared.dir.resolve("sink"), backup);
        } catch (IOException e) {
            throw new UncheckedIOException("could not back up the sink's files into " + backup, e);
        }
        journal.add(Lane.SINK, EventKind.SINK_BACKED_UP, Times.nowMicros(), "backup taken", "the sink's SQLite files copied to " + backup.getFileName());
        progress.accept("the sink's database files copied aside as a backup (%s)", new Object[] {backup.getFileName()});
    }

    public void restoreSinkBackup() {
        long pid = prepared.sink().pid();
        long killedAt = Times.nowMicros();
        LabProcess<SinkReport> restarted = prepared.restoreSink(backupDir());
        SinkReport.Listening listening = restarted.await(SinkReport.Listening.class, RepeatRun.START_TIMEOUT);
        long upAt = Times.nowMicros();
        journal.add(Lane.SINK, EventKind.SINK_KILLED, killedAt, "SIGKILL", "the sink server (pid " + pid + ") is killed to restore its files");
        journal.add(Lane.SINK, EventKind.SINK_RESTORED_FROM_BACKUP, upAt, "restored from backup",
                "a new sink server (pid " + listening.pid() + ") over the backup's files: its mark is the backup's");
        progress.accept("sink server (pid %d) killed; its databases replaced by the older backup; a new server (pid %d) runs over them",
                new Object[] {pid, listening.pid()});
    }

    private Path backupDir() {
        return prepared.dir.resolve("sink-backup");
    }

    private long revision() {
        return Etcd.await(client().getKVClient().get(ByteSequence.from(prepared.key, StandardCharsets.UTF_8))).getHeader().getRevision();
    }

    private static Ownership acquire(String name, java.util.function.Function<String, Optional<Ownership>> tryAcquire) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (true) {
            Optional<Ownership> got = tryAcquire.apply(name);
            if (got.isPresent()) {
                return got.get();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " could not take the lock within 5 s");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    @Override
    public void close() {
        if (restoredClient != null) {
            restoredClient.close();
        }
    }
}
