package fencing.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import fencing.grading.TestGroup;
import fencing.support.Etcd;
import fencing.support.RestorableEtcd;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A real snapshot restore: owners acquire after a snapshot and a sink's high-water mark climbs with their tokens,
 * then etcd is stopped and brought back from the snapshot, its revision back where the snapshot left it.
 *
 * <p>The mark here is the fenced sink's rule, kept as a number: it accepts a token equal to or above the
 * highest it has accepted, and rejects one below.
 */
@TestGroup("etcd-restore")
@Tag("etcd")
@DisplayName("Recovery: after a snapshot restore the next owner's token is above every token issued before it")
class RestoreLineageTests {

    private static final int OWNERS_BEFORE_RESTORE = 3;

    private static RestorableEtcd etcd;
    private Client client;

    // Starting an etcd of its own (it is stopped and restored here, so never the shared one) may take a while.
    @BeforeAll
    static void start() {
        etcd = RestorableEtcd.start();
    }

    @AfterAll
    static void stop() {
        etcd.close();
    }

    @BeforeEach
    void connect() {
        client = connected();
    }

    @AfterEach
    void disconnect() {
        client.close();
    }

    @Test
    @Graded(points = 1, tags = {"lineage", "extension"})
    @DisplayName("Without Recovery, the first owner after a restore gets a token below the sink's mark: the sink would reject it")
    void withoutRecoveryTheFirstOwnerAfterTheRestoreIsBelowTheMark() {
        Drill drill = new Drill("no-recovery");
        Path snapshot = etcd.snapshot(client);
        long mark = drill.ownersWrite(OWNERS_BEFORE_RESTORE);

        RestorableEtcd.Restored restored = restore(snapshot);
        Ownership first = acquired(drill.locks(client), "after-restore");

        assertThat(first.token())
                .as("etcd was brought back from a snapshot (%s): its revision went back, so without a new epoch the first owner's"
                        + " token %d must fall below the sink's mark %d, and the sink would reject the rightful owner",
                        restored.description(), first.token(), mark)
                .isLessThan(mark);
    }

    @Test
    @Graded(points = 3, tags = {"lineage", "extension"})
    @DisplayName("With Recovery, the first owner after a restore gets a token above the sink's mark, and an old release frees nothing")
    void withRecoveryTheFirstOwnerAfterTheRestoreIsAboveTheMark() {
        Drill drill = new Drill("recovery");
        Path snapshot = etcd.snapshot(client);
        long mark = drill.ownersWrite(OWNERS_BEFORE_RESTORE);
        // The last owner before the restore still holds the lock: its ownership outlives the cluster's rollback.
        Ownership beforeRestore = acquired(drill.locks(client), "holder-before-restore");
        mark = Math.max(mark, beforeRestore.token());

        RestorableEtcd.Restored restored = restore(snapshot);
        long epoch = Recovery.afterRestore(client, drill.epochKey, mark);
        EpochLockService locks = drill.locks(client);
        Ownership first = acquired(locks, "after-restore");

        assertThat(epoch)
                .as("Recovery.afterRestore after %s with mark %d (epoch %d) must return a new epoch above it",
                        restored.description(), mark, Tokens.epoch(mark))
                .isGreaterThan(Tokens.epoch(mark));
        assertThat(drill.epochStored(client))
                .as("Recovery.afterRestore returned epoch %d: the epoch key must hold it as decimal text", epoch)
                .contains(Long.toString(epoch));
        assertThat(first.token())
                .as("after the restore (%s) and Recovery (epoch %d), the first owner's token %d must be above the sink's mark %d,"
                        + " so the sink accepts the rightful owner", restored.description(), epoch, first.token(), mark)
                .isGreaterThan(mark);
        boolean released = locks.release(beforeRestore);
        assertThat(released)
                .as("the ownership from before the restore (token %d) must not release the new owner's key (token %d)",
                        beforeRestore.token(), first.token())
                .isFalse();
        assertThat(drill.lockKey(client).map(KeyValue::getCreateRevision))
                .as("after the old ownership's release, the new owner's lock key must still be there")
                .contains(Tokens.revision(first.token()));
    }

    @Test
    @Graded(points = 2, tags = {"lineage", "extension"})
    @DisplayName("Recovery raises the epoch above the mark's epoch even when the restored epoch key is older than it")
    void recoveryGoesAboveTheMarksEpochNotJustTheStoredOne() {
        Drill drill = new Drill("older-epoch");
        // Taken while the epoch key is absent; an earlier recovery then raised it to 3, and owners wrote in epoch 3.
        Path snapshot = etcd.snapshot(client);
        EtcdObserver.await(client.getKVClient().put(EtcdObserver.bytes(drill.epochKey), EtcdObserver.bytes("3")));
        long mark = drill.ownersWrite(OWNERS_BEFORE_RESTORE);

        RestorableEtcd.Restored restored = restore(snapshot);
        Optional<String> storedAfterRestore = drill.epochStored(client);
        long epoch = Recovery.afterRestore(client, drill.epochKey, mark);
        Ownership first = acquired(drill.locks(client), "after-restore");

        assertThat(epoch)
                .as("the restored epoch key is %s but the sink's mark %d is of epoch %d: Recovery must take the larger of the two"
                        + " and add one, so it must return at least %d, got %d (%s)", storedAfterRestore.orElse("absent (epoch 0)"),
                        mark, Tokens.epoch(mark), Tokens.epoch(mark) + 1, epoch, restored.description())
                .isGreaterThan(Tokens.epoch(mark));
        assertThat(first.token())
                .as("the first owner after the restore got token %d: it must be above the sink's mark %d", first.token(), mark)
                .isGreaterThan(mark);
    }

    @Test
    @Graded(points = 2, tags = {"lineage", "extension"})
    @DisplayName("Recovery raises an epoch key that already holds an epoch: a second restore, after an earlier recovery")
    void recoveryRaisesAnEpochKeyThatAlreadyHoldsOne() {
        Drill drill = new Drill("second-restore");
        // An earlier recovery raised the epoch to 2, and the snapshot holds that key; owners then wrote in epoch 2.
        EtcdObserver.await(client.getKVClient().put(EtcdObserver.bytes(drill.epochKey), EtcdObserver.bytes("2")));
        Path snapshot = etcd.snapshot(client);
        long mark = drill.ownersWrite(OWNERS_BEFORE_RESTORE);

        RestorableEtcd.Restored restored = restore(snapshot);
        Optional<String> storedAfterRestore = drill.epochStored(client);
        long epoch = Recovery.afterRestore(client, drill.epochKey, mark);
        Optional<String> storedAfterRecovery = drill.epochStored(client);
        Ownership first = acquired(drill.locks(client), "after-second-restore");

        assertThat(storedAfterRestore).as("the restored epoch key (%s)", restored.description()).contains("2");
        assertThat(epoch).as("the restored epoch key holds 2 and the sink's mark %d is of epoch 2: Recovery must raise it to 3,"
                + " got %d", mark, epoch).isEqualTo(3);
        assertThat(storedAfterRecovery).as("Recovery.afterRestore returned epoch %d: the epoch key, which already held 2, must now hold"
                + " it as decimal text; a recovery that writes only when the key is missing leaves the old epoch in force", epoch)
                .contains(Long.toString(epoch));
        assertThat(first.token())
                .as("the first owner after the second restore got token %d: it must be above the sink's mark %d", first.token(), mark)
                .isGreaterThan(mark);
    }

    private RestorableEtcd.Restored restore(Path snapshot) {
        client.close();
        RestorableEtcd.Restored restored = etcd.restore(snapshot);
        client = connected();
        return restored;
    }

    /**
     * Returns a new client that has answered once: its first call connects it to an etcd that may have just been restarted,
     * which under a small CPU share takes seconds. Made here, with the test's own bound, that wait is never counted against
     * a call of the submission's, whose bound is its own.
     */
    private static Client connected() {
        Client fresh = etcd.newClient();
        EtcdObserver.await(fresh.getKVClient().get(EtcdObserver.bytes(Etcd.uniqueKey("connect"))));
        return fresh;
    }

    private static Ownership acquired(EpochLockService locks, String owner) {
        Optional<Ownership> ownership = locks.tryAcquire(owner);
        assertThat(ownership).as("tryAcquire(\"%s\") on a free lock must return an ownership", owner).isPresent();
        return ownership.get();
    }

    /** One lock key and its epoch key, and owners that take the lock, write to the sink and release. */
    private final class Drill {

        private final String lockKey;
        private final String epochKey;

        Drill(String name) {
            this.lockKey = Etcd.uniqueKey("restore-" + name);
            this.epochKey = Etcd.uniqueKey("restore-" + name + "-epoch");
        }

        EpochLockService locks(Client on) {
            return new EpochLockService(on, lockKey, epochKey, EtcdObserver.HELD_TTL_SECONDS);
        }

        /** {@code count} owners in turn take the lock, write (the sink accepts: each token is newer) and release; returns the mark. */
        long ownersWrite(int count) {
            EpochLockService locks = locks(client);
            long mark = 0;
            for (int i = 1; i <= count; i++) {
                Ownership owner = acquired(locks, "owner-" + i);
                assertThat(owner.token()).as("owner %d's token %d must be above the mark %d before any restore", i, owner.token(), mark)
                        .isGreaterThan(mark);
                mark = owner.token();
                assertThat(locks.release(owner)).as("owner %d's release of its own lock", i).isTrue();
            }
            return mark;
        }

        Optional<String> epochStored(Client on) {
            List<KeyValue> kvs = EtcdObserver.await(on.getKVClient().get(EtcdObserver.bytes(epochKey))).getKvs();
            return kvs.isEmpty() ? Optional.empty() : Optional.of(EtcdObserver.text(kvs.get(0).getValue()));
        }

        Optional<KeyValue> lockKey(Client on) {
            List<KeyValue> kvs = EtcdObserver.await(on.getKVClient().get(EtcdObserver.bytes(lockKey))).getKvs();
            return kvs.isEmpty() ? Optional.empty() : Optional.of(kvs.get(0));
        }
    }
}
