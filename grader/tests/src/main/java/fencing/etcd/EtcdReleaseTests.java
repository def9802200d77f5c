package fencing.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import fencing.support.Etcd;
import io.etcd.jetcd.KeyValue;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Tag("etcd")
@DisplayName("EtcdLockService: release deletes only the caller's own key")
class EtcdReleaseTests {

    private static final long HELD_TTL_SECONDS = 10;

    private static EtcdObserver etcd;

    // The first etcd test in a JVM may start etcd itself, which has up to 30 s to become healthy.
    @BeforeAll
    @Timeout(value = 40)
    static void connect() {
        etcd = EtcdObserver.connect();
    }

    @AfterAll
    static void disconnect() {
        etcd.close();
    }

    @Test
    @Graded(points = 3, tags = "release-safety")
    @DisplayName("A stale owner's release never deletes the newer owner's key")
    void staleReleaseLeavesTheNewOwnersKey() {
        String key = Etcd.uniqueKey("stale-release");
        EtcdLockService locks = new EtcdLockService(etcd.client(), key, HELD_TTL_SECONDS);
        Ownership alice = acquired(locks, "alice");
        // Alice is paused past her lease: etcd drops her lease and her key, as expiry would.
        etcd.revoke(alice.leaseId());
        Ownership bob = acquired(locks, "bob");

        boolean released = locks.release(alice);

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
    @DisplayName("The holder's release deletes its key, ends its lease and frees the lock")
    void releaseDeletesTheOwnKeyAndRevokesTheLease() {
        String key = Etcd.uniqueKey("release");
        EtcdLockService locks = new EtcdLockService(etcd.client(), key, HELD_TTL_SECONDS);
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

    private static Ownership acquired(EtcdLockService locks, String owner) {
        Optional<Ownership> ownership = locks.tryAcquire(owner);
        assertThat(ownership).as("tryAcquire(\"%s\") on a free lock must return an ownership", owner).isPresent();
        return ownership.get();
    }
}
