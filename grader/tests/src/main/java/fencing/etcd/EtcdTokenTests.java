package fencing.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import fencing.grading.TestGroup;
import fencing.support.Etcd;
import io.etcd.jetcd.KeyValue;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@TestGroup("etcd-lease")
@Tag("etcd")
@DisplayName("EtcdLockService: the fencing token is the lock key's create_revision")
class EtcdTokenTests {


    @RegisterExtension
    static final EtcdObserver etcd = new EtcdObserver();

    /** A service whose client writes an unrelated key before each of its KV calls, as on a busy cluster. */
    private static EtcdLockService busyService(String key, long ttlSeconds) {
        return new EtcdLockService(ObservedClient.withUnrelatedWrites(etcd.client(), Etcd.uniqueKey("busy")).client(), key, ttlSeconds);
    }

    @Test
    @Graded(points = 2, tags = "monotonic-tokens")
    @DisplayName("The token is the lock key's create_revision as etcd reports it, not the lease ID")
    void tokenIsTheLockKeysCreateRevision() {
        String key = Etcd.uniqueKey("token");
        EtcdLockService locks = busyService(key, EtcdObserver.HELD_TTL_SECONDS);

        Optional<Ownership> alice = locks.tryAcquire("alice");
        etcd.unrelatedWrites(3);

        assertThat(alice).as("tryAcquire on a free lock must return an ownership").isPresent();
        long createRevision = createRevision(key);
        assertThat(alice.get().token())
                .as("the token must be the lock key's create_revision, which etcd reports as %d (other writes went on "
                        + "meanwhile, so a revision read later is larger); got token %d", createRevision, alice.get().token())
                .isEqualTo(createRevision);
        assertThat(alice.get().token())
                .as("the token must not be the lease ID (%d): lease IDs are not ordered by grant, revisions are",
                        alice.get().leaseId())
                .isNotEqualTo(alice.get().leaseId());
    }

    @Test
    @Graded(points = 2, tags = "monotonic-tokens")
    @DisplayName("After a release, the next owner gets a larger token, even with other writes in between")
    void nextOwnerAfterReleaseGetsALargerToken() {
        String key = Etcd.uniqueKey("token-after-release");
        EtcdLockService locks = busyService(key, EtcdObserver.HELD_TTL_SECONDS);

        Ownership alice = acquired(locks, "alice");
        etcd.unrelatedWrites(2);
        long aliceRevision = createRevision(key);
        locks.release(alice);
        etcd.unrelatedWrites(2);
        Ownership bob = acquired(locks, "bob");
        etcd.unrelatedWrites(2);
        long bobRevision = createRevision(key);

        assertThat(alice.token())
                .as("alice's token must be the create_revision etcd reports for her key (%d)", aliceRevision)
                .isEqualTo(aliceRevision);
        assertThat(bob.token())
                .as("bob's token must be the create_revision etcd reports for his key (%d)", bobRevision)
                .isEqualTo(bobRevision);
        assertThat(bob.token())
                .as("bob took the lock after alice released it, so his token must be larger than hers (%d): "
                        + "fencing tokens grow with every grant", alice.token())
                .isGreaterThan(alice.token());
    }

    @Test
    @Graded(points = 2, tags = "monotonic-tokens")
    @DisplayName("After the holder's lease expires, the next owner gets a larger token")
    void nextOwnerAfterExpiryGetsALargerToken() {
        String key = Etcd.uniqueKey("token-after-expiry");
        ObservedClient observed = ObservedClient.withUnrelatedWrites(etcd.client(), Etcd.uniqueKey("busy"));
        EtcdLockService locks = new EtcdLockService(observed.client(), key, EtcdObserver.HELD_TTL_SECONDS);

        Ownership alice = acquired(locks, "alice");
        etcd.unrelatedWrites(2);
        long aliceRevision = createRevision(key);
        assertThat(observed.keptAliveLeases())
                .as("alice stopped keeping her lease alive, so the lock service must not keep it alive for her (a lock that"
                        + " keeps its lease alive after its holder stopped never lets another owner in); it asked its client to"
                        + " keep these leases alive")
                .isEmpty();
        // Alice is paused past her lease: etcd ends it and deletes her key, as expiry would.
        etcd.revoke(alice.leaseId());
        assertThat(etcd.read(key))
                .as("alice's lease %d ended, so etcd must have deleted the lock key with it: the lock key must be attached"
                        + " to the holder's lease, or it will outlive her", alice.leaseId())
                .isEmpty();
        etcd.unrelatedWrites(2);
        Ownership bob = acquired(locks, "bob");
        etcd.unrelatedWrites(2);
        long bobRevision = createRevision(key);

        assertThat(alice.token())
                .as("alice's token must be the create_revision etcd reports for her key (%d)", aliceRevision)
                .isEqualTo(aliceRevision);
        assertThat(bob.token())
                .as("bob's token must be the create_revision etcd reports for his key (%d)", bobRevision)
                .isEqualTo(bobRevision);
        assertThat(bob.token())
                .as("bob took the lock after alice's lease expired, so his token must be larger than hers (%d): "
                        + "a paused alice waking up must be fenced off", alice.token())
                .isGreaterThan(alice.token());
    }

    private static Ownership acquired(EtcdLockService locks, String owner) {
        Optional<Ownership> ownership = locks.tryAcquire(owner);
        assertThat(ownership).as("tryAcquire(\"%s\") on a free lock must return an ownership", owner).isPresent();
        return ownership.get();
    }

    private static long createRevision(String key) {
        Optional<KeyValue> kv = etcd.read(key);
        assertThat(kv).as("the lock key %s must exist in etcd while the lock is held", key).isPresent();
        return kv.get().getCreateRevision();
    }
}
