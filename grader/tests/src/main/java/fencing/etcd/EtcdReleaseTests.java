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

@TestGroup("etcd-release")
@Tag("etcd")
@DisplayName("EtcdLockService: release deletes only the caller's own key")
class EtcdReleaseTests {


    @RegisterExtension
    static final EtcdObserver etcd = new EtcdObserver();

    @Test
    @Graded(points = 3, tags = "release-safety")
    @DisplayName("A stale owner's release never deletes the newer owner's key")
    void staleReleaseLeavesTheNewOwnersKey() {
        String key = Etcd.uniqueKey("stale-release");
        EtcdLockService locks = new EtcdLockService(etcd.busyClient(), key, EtcdObserver.HELD_TTL_SECONDS);
        Ownership alice = acquired(locks, "alice");
        // Alice is paused past her lease: etcd drops her lease and her key, as expiry would.
        etcd.revoke(alice.leaseId());
        Ownership bob = acquired(locks, "bob");

        boolean released = releaseOfAGoneLease(locks, alice, "alice's lease expired and bob holds the lock");

        assertThat(released)
                .as("alice's lease expired and bob holds the lock now (token %d); alice's late release (token %d) "
                        + "must delete nothing and return false", bob.token(), alice.token())
                .isFalse();
        Optional<KeyValue> kv = etcd.read(key);
        assertThat(kv)
                .as("after alice's stale release, bob's lock key must still exist")
                .isPresent();
        assertThat(kv.get().getCreateRevision())
                .as("after alice's stale release the lock key must still be bob's (create_revision %d)", bob.token())
                .isEqualTo(bob.token());
        assertThat(etcd.timeToLive(bob.leaseId()))
                .as("alice's stale release must not touch bob's lease %d", bob.leaseId())
                .isPositive();
    }

    @Test
    @Graded(points = 2, tags = "release-safety")
    @DisplayName("A release from an earlier ownership by the same owner name never deletes that owner's newer key")
    void releaseOfAnEarlierGenerationLeavesTheSameOwnersNewerKey() {
        String key = Etcd.uniqueKey("same-name-release");
        EtcdLockService locks = new EtcdLockService(etcd.busyClient(), key, EtcdObserver.HELD_TTL_SECONDS);
        Ownership first = acquired(locks, "alice");
        // Alice's first lease lapses while she is paused; a restarted alice, same name, takes the lock again.
        etcd.revoke(first.leaseId());
        Ownership second = acquired(locks, "alice");

        boolean released = releaseOfAGoneLease(locks, first, "alice's first lease expired and she holds the lock again");

        assertThat(released)
                .as("rule: a release identifies the ownership generation it was given (the key's create_revision), never"
                        + " just the owner's name or the lease; observed: alice's first ownership (token %d) released the"
                        + " lock although alice holds it again with token %d", first.token(), second.token())
                .isFalse();
        assertThat(etcd.read(key).map(KeyValue::getCreateRevision))
                .as("rule: compare CREATE_REVISION(key) with the token, not the key's value (the owner's name); after the"
                        + " release of alice's first ownership the key must still be her second (create_revision %d)",
                        second.token())
                .contains(second.token());
        assertThat(etcd.timeToLive(second.leaseId()))
                .as("the release of alice's first ownership must revoke only its own lease %d, never her second lease %d",
                        first.leaseId(), second.leaseId())
                .isPositive();
    }

    @Test
    @Graded(points = 2, tags = "release-safety")
    @DisplayName("A stale release still ends the stale owner's own lease, whether or not the key was deleted")
    void staleReleaseStillRevokesItsOwnLease() {
        String key = Etcd.uniqueKey("stale-lease-release");
        EtcdLockService locks = new EtcdLockService(etcd.busyClient(), key, EtcdObserver.HELD_TTL_SECONDS);
        Ownership alice = acquired(locks, "alice");
        // An operator deletes the key by hand; alice's lease lives on, and bob takes the lock.
        EtcdObserver.await(etcd.client().getKVClient().delete(EtcdObserver.bytes(key)));
        Ownership bob = acquired(locks, "bob");

        boolean released = locks.release(alice);

        assertThat(released)
                .as("bob holds the lock (token %d), so alice's release (token %d) must delete nothing and return false",
                        bob.token(), alice.token())
                .isFalse();
        assertThat(etcd.timeToLive(alice.leaseId()))
                .as("rule: release revokes the ownership's lease whether or not the key was deleted; observed: alice's"
                        + " lease %d still alive after her release (etcd reports -1 for a revoked lease)", alice.leaseId())
                .isEqualTo(-1L);
        assertThat(etcd.read(key).map(KeyValue::getCreateRevision))
                .as("after alice's stale release the lock key must still be bob's (create_revision %d)", bob.token())
                .contains(bob.token());
    }

    @Test
    @Graded(points = 2, tags = "release-safety")
    @DisplayName("Releasing after the lease already expired returns false and is not an error")
    void releaseAfterTheLeaseExpiredIsNotAnError() {
        String key = Etcd.uniqueKey("expired-release");
        EtcdLockService locks = new EtcdLockService(etcd.busyClient(), key, EtcdObserver.HELD_TTL_SECONDS);
        Ownership alice = acquired(locks, "alice");
        // Alice's lease is gone, as expiry would leave it: etcd answers NOT_FOUND to a revoke of it.
        etcd.revoke(alice.leaseId());

        boolean released = releaseOfAGoneLease(locks, alice, "alice's lease expired and took her key with it");

        assertThat(released)
                .as("alice's lease expired and took her key with it, so her release deleted nothing and must return false")
                .isFalse();
        assertThat(locks.tryAcquire("bob")).as("after alice's late release, tryAcquire(\"bob\") on the free lock").isPresent();
    }

    @Test
    @Graded(points = 2, tags = "release-safety")
    @DisplayName("The holder's release deletes its key, ends its lease and frees the lock")
    void releaseDeletesTheOwnKeyAndRevokesTheLease() {
        String key = Etcd.uniqueKey("release");
        EtcdLockService locks = new EtcdLockService(etcd.busyClient(), key, EtcdObserver.HELD_TTL_SECONDS);
        Ownership alice = acquired(locks, "alice");

        boolean released = locks.release(alice);

        assertThat(released)
                .as("alice holds the lock (token %d), so her release must delete the key and return true", alice.token())
                .isTrue();
        assertThat(etcd.read(key))
                .as("after alice's release the lock key must be gone")
                .isEmpty();
        assertThat(etcd.timeToLive(alice.leaseId()))
                .as("release must revoke alice's lease %d (etcd reports -1 for a lease it no longer has)", alice.leaseId())
                .isEqualTo(-1L);
        assertThat(locks.tryAcquire("bob"))
                .as("after alice's release, tryAcquire(\"bob\") must succeed")
                .isPresent();
    }

    /**
     * Releases {@code ownership}, whose lease etcd no longer has, and turns an exception into the rule it breaks. jetcd
     * 0.8 fails the revoke with {@code io.grpc.StatusRuntimeException} (NOT_FOUND), not with its {@code EtcdException},
     * so code that tolerates only the latter throws here; either type, bare or wrapped, gets the same message.
     */
    private static boolean releaseOfAGoneLease(EtcdLockService locks, Ownership ownership, String situation) {
        try {
            return locks.release(ownership);
        } catch (RuntimeException e) {
            throw new AssertionError("rule: a lease that is already gone is not an error for release, there is nothing"
                    + " left to revoke; observed: release threw\n" + causes(e) + "\nwhen " + situation + " (token "
                    + ownership.token() + ", lease " + ownership.leaseId() + "); etcd answers NOT_FOUND to the revoke,"
                    + " which jetcd reports as io.grpc.StatusRuntimeException, not EtcdException", e);
        }
    }

    /** Names an exception and each cause under it, so that a wrapped NOT_FOUND shows as such. */
    private static String causes(Throwable thrown) {
        StringBuilder chain = new StringBuilder(thrown.toString());
        Throwable cause = thrown.getCause();
        for (int depth = 0; cause != null && depth < 5; depth++, cause = cause.getCause()) {
            chain.append(", caused by ").append(cause);
        }
        return chain.toString();
    }

    private static Ownership acquired(EtcdLockService locks, String owner) {
        Optional<Ownership> ownership = locks.tryAcquire(owner);
        assertThat(ownership).as("tryAcquire(\"%s\") on a free lock must return an ownership", owner).isPresent();
        return ownership.get();
    }
}
