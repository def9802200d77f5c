package fencing.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import fencing.grading.TestGroup;
import fencing.support.Etcd;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@TestGroup("etcd-release")
@Tag("etcd")
@DisplayName("EpochLockService: the token is Tokens.compose(epoch, create_revision), both read in the Txn that creates the key")
class EpochLockTests {


    @RegisterExtension
    static final EtcdObserver etcd = new EtcdObserver();

    @Test
    @Graded(points = 2, tags = {"extension", "lineage"})
    @DisplayName("The token is the create_revision in epoch 0, and Tokens.compose(epoch, create_revision) in a later epoch")
    void tokenComposesTheEpochAndTheCreateRevision() {
        String key = Etcd.uniqueKey("epoch-token");
        String epochKey = Etcd.uniqueKey("epoch");
        EpochLockService locks = new EpochLockService(etcd.busyClient(), key, epochKey, EtcdObserver.HELD_TTL_SECONDS);

        Ownership first = acquired(locks, "alice");
        long firstRevision = etcd.read(key).orElseThrow().getCreateRevision();
        assertThat(first.token())
                .as("with no epoch key the epoch is 0, and compose(0, r) == r: the token must be the create_revision %d, got %d",
                        firstRevision, first.token())
                .isEqualTo(firstRevision);
        locks.release(first);

        put(epochKey, "3");
        Ownership second = acquired(locks, "bob");
        long secondRevision = etcd.read(key).orElseThrow().getCreateRevision();
        assertThat(second.token())
                .as("with the epoch key at 3 the token must be Tokens.compose(3, %d) = %d (epoch << 40 | revision), got %d"
                        + " (epoch %d, revision %d as Tokens reads it): a composition of its own can run the revision into the epoch's bits",
                        secondRevision, Tokens.compose(3, secondRevision), second.token(),
                        second.token() < 0 ? -1 : Tokens.epoch(second.token()), second.token() < 0 ? -1 : Tokens.revision(second.token()))
                .isEqualTo(Tokens.compose(3, secondRevision));
    }

    @Test
    @Graded(points = 2, tags = "extension")
    @DisplayName("The epoch is read in the same Txn that creates the lock key, even while the epoch changes between calls")
    void epochIsReadInTheTxnThatCreatesTheKey() {
        String key = Etcd.uniqueKey("epoch-in-txn");
        String epochKey = Etcd.uniqueKey("epoch");
        AtomicLong epoch = new AtomicLong(1);
        put(epochKey, "1");
        // After every call of the service the epoch moves on: only a read inside the creating Txn sees the epoch of that moment.
        ObservedClient observed = ObservedClient.withListener(etcd.client(), call -> put(epochKey, Long.toString(epoch.incrementAndGet())));
        EpochLockService locks = new EpochLockService(observed.client(), key, epochKey, EtcdObserver.HELD_TTL_SECONDS);

        Ownership alice = acquired(locks, "alice");

        KeyValue created = etcd.read(key).orElseThrow();
        long epochAtCreation = epochAt(epochKey, created.getCreateRevision());
        assertThat(alice.token())
                .as("the epoch must be read in the same Txn that creates the key, not in a call before or after it;"
                        + " observed: token %d (epoch %d), not Tokens.compose(%d, %d) = %d%nthe lock key was created at"
                        + " revision %d, when the epoch key held %d, and the epoch changed after every call the service made",
                        alice.token(), alice.token() < 0 ? -1 : Tokens.epoch(alice.token()), epochAtCreation,
                        created.getCreateRevision(), Tokens.compose(epochAtCreation, created.getCreateRevision()),
                        created.getCreateRevision(), epochAtCreation)
                .isEqualTo(Tokens.compose(epochAtCreation, created.getCreateRevision()));
    }

    @Test
    @Graded(points = 3, tags = {"extension", "lineage"})
    @DisplayName("An ownership from an earlier epoch with the same revision does not release the new owner's key")
    void releaseComparesTheEpochAsWellAsTheRevision() {
        String key = Etcd.uniqueKey("epoch-release");
        String epochKey = Etcd.uniqueKey("epoch");
        put(epochKey, "1");
        EpochLockService locks = new EpochLockService(etcd.busyClient(), key, epochKey, EtcdObserver.HELD_TTL_SECONDS);
        Ownership bob = acquired(locks, "bob");
        long revision = Tokens.revision(bob.token());
        long spareLease = EtcdObserver.await(etcd.client().getLeaseClient().grant(EtcdObserver.HELD_TTL_SECONDS)).getID();
        // After a restore revisions repeat: an owner of epoch 0 may hold a token with bob's very revision.
        Ownership beforeRestore = new Ownership("alice", Tokens.compose(0, revision), spareLease);

        boolean released = locks.release(beforeRestore);

        assertThat(released)
                .as("alice's ownership is from epoch 0 (token %d) and bob's from epoch 1 (token %d), with the same revision %d:"
                        + " alice's release must compare the epoch too, delete nothing and return false", beforeRestore.token(), bob.token(), revision)
                .isFalse();
        Optional<KeyValue> kv = etcd.read(key);
        assertThat(kv.map(KeyValue::getCreateRevision))
                .as("after the release of an ownership from an earlier epoch, bob's lock key (create_revision %d) must still exist", revision)
                .contains(revision);
        assertThat(etcd.timeToLive(bob.leaseId())).as("bob's lease must be untouched").isPositive();
    }

    @Test
    @Graded(points = 2, tags = "extension")
    @DisplayName("The holder's release deletes its key and ends its lease, in epoch 0 (no epoch key) and in a later epoch")
    void holderReleasesInEveryEpoch() {
        String key = Etcd.uniqueKey("epoch-holder-release");
        String epochKey = Etcd.uniqueKey("epoch");
        EpochLockService locks = new EpochLockService(etcd.busyClient(), key, epochKey, EtcdObserver.HELD_TTL_SECONDS);
        for (String epoch : new String[] {null, "4"}) {
            if (epoch != null) {
                put(epochKey, epoch);
            }
            Ownership alice = acquired(locks, "alice");

            boolean released = locks.release(alice);

            String which = epoch == null ? "epoch 0 (the epoch key is absent)" : "epoch " + epoch;
            assertThat(released).as("in %s alice holds the lock (token %d): her release must delete the key and return true",
                    which, alice.token()).isTrue();
            assertThat(etcd.read(key)).as("in %s, after alice's release the lock key must be gone", which).isEmpty();
            assertThat(etcd.timeToLive(alice.leaseId())).as("in %s, release must revoke alice's lease", which).isEqualTo(-1L);
        }
    }

    private static Ownership acquired(EpochLockService locks, String owner) {
        Optional<Ownership> ownership = locks.tryAcquire(owner);
        assertThat(ownership).as("tryAcquire(\"%s\") on a free lock must return an ownership", owner).isPresent();
        return ownership.get();
    }

    private static void put(String key, String value) {
        EtcdObserver.await(etcd.client().getKVClient().put(EtcdObserver.bytes(key), EtcdObserver.bytes(value)));
    }

    /** Reads the epoch key as it was at {@code revision}; 0 if it was absent then. */
    private static long epochAt(String epochKey, long revision) {
        List<KeyValue> kvs = EtcdObserver.await(etcd.client().getKVClient().get(EtcdObserver.bytes(epochKey),
                GetOption.builder().withRevision(revision).build())).getKvs();
        return kvs.isEmpty() ? 0 : Long.parseLong(EtcdObserver.text(kvs.get(0).getValue()));
    }
}
