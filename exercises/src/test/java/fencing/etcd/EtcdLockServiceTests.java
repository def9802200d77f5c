package fencing.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.support.Etcd;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("etcd")
@DisplayName("EtcdLockService: a lock in a real etcd, with the key's create_revision as fencing token")
class EtcdLockServiceTests {

    private static final long TTL_SECONDS = 10;

    @RegisterExtension
    static final EtcdExtension etcd = new EtcdExtension();

    private static Ownership acquired(EtcdLockService locks, String owner) {
        Optional<Ownership> ownership = locks.tryAcquire(owner);
        assertThat(ownership).as("tryAcquire(\"%s\") on a free lock must return an ownership", owner).isPresent();
        return ownership.get();
    }

    private static Optional<KeyValue> readKey(String key) throws Exception {
        List<KeyValue> kvs = etcd.client().getKVClient().get(ByteSequence.from(key, StandardCharsets.UTF_8))
                .get(5, TimeUnit.SECONDS).getKvs();
        return kvs.isEmpty() ? Optional.empty() : Optional.of(kvs.get(0));
    }

    @Test
    @DisplayName("Taking a free lock creates the key; the token is the key's create_revision")
    void acquiresFreeLockWithCreateRevisionAsToken() throws Exception {
        String key = Etcd.uniqueKey("public-acquire");
        EtcdLockService locks = new EtcdLockService(etcd.client(), key, TTL_SECONDS);

        Optional<Ownership> alice = locks.tryAcquire("alice");

        assertThat(alice).as("tryAcquire(\"alice\") on a free lock must return an ownership").isPresent();
        Optional<KeyValue> kv = readKey(key);
        assertThat(kv).as("while alice holds the lock, the lock key %s must exist in etcd", key).isPresent();
        assertThat(alice.get().token())
                .as("the token must be the lock key's create_revision (%d), not the lease ID", kv.get().getCreateRevision())
                .isEqualTo(kv.get().getCreateRevision());
        assertThat(kv.get().getLease())
                .as("the lock key must be attached to alice's lease %d, so that it goes when the lease expires", alice.get().leaseId())
                .isEqualTo(alice.get().leaseId());
    }

    @Test
    @DisplayName("While the lock is held, another owner's tryAcquire returns empty")
    void refusesTheLockWhileHeld() {
        String key = Etcd.uniqueKey("public-held");
        EtcdLockService locks = new EtcdLockService(etcd.client(), key, TTL_SECONDS);
        Optional<Ownership> alice = locks.tryAcquire("alice");
        assertThat(alice).as("tryAcquire(\"alice\") on a free lock must return an ownership").isPresent();

        Optional<Ownership> bob = locks.tryAcquire("bob");

        assertThat(bob).as("alice holds the lock (token %d), so tryAcquire(\"bob\") must return empty", alice.get().token()).isEmpty();
    }

    @Test
    @DisplayName("After a release the next owner gets the lock with a larger token")
    void releaseFreesTheLockForALargerToken() throws Exception {
        String key = Etcd.uniqueKey("public-release");
        EtcdLockService locks = new EtcdLockService(etcd.client(), key, TTL_SECONDS);
        Ownership alice = acquired(locks, "alice");

        boolean released = locks.release(alice);
        Optional<Ownership> bob = locks.tryAcquire("bob");

        assertThat(released).as("alice holds the lock, so her release must delete the key and return true").isTrue();
        assertThat(bob).as("after alice's release, tryAcquire(\"bob\") must succeed").isPresent();
        assertThat(bob.get().token())
                .as("bob's token must be larger than alice's (%d): tokens grow with every grant", alice.token())
                .isGreaterThan(alice.token());
    }

    @Test
    @DisplayName("A stale owner's release leaves the newer owner's key in place")
    void staleReleaseLeavesTheNewOwnersKey() throws Exception {
        String key = Etcd.uniqueKey("public-stale-release");
        EtcdLockService locks = new EtcdLockService(etcd.client(), key, TTL_SECONDS);
        Ownership alice = acquired(locks, "alice");
        // As if alice's lease had expired while she was paused: etcd deletes her key.
        etcd.client().getLeaseClient().revoke(alice.leaseId()).get(5, TimeUnit.SECONDS);
        Ownership bob = acquired(locks, "bob");

        boolean released = locks.release(alice);

        assertThat(released)
                .as("bob holds the lock now (token %d), so alice's late release (token %d) must return false", bob.token(), alice.token())
                .isFalse();
        assertThat(readKey(key).map(KeyValue::getCreateRevision))
                .as("after alice's late release the lock key must still be bob's (create_revision %d)", bob.token())
                .contains(bob.token());
    }
}
