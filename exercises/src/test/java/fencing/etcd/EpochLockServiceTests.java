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
@Tag("extension")
@DisplayName("EpochLockService: a lock in a real etcd whose token is Tokens.compose(epoch, create_revision)")
class EpochLockServiceTests {

    private static final long TTL_SECONDS = 10;

    @RegisterExtension
    static final EtcdExtension etcd = new EtcdExtension();

    @Test
    @DisplayName("With the epoch key at 3, the token holds epoch 3 and the lock key's create_revision")
    void tokenComposesTheStoredEpochWithTheCreateRevision() throws Exception {
        String key = Etcd.uniqueKey("public-epoch-lock");
        String epochKey = key + "-epoch";
        put(epochKey, "3");
        EpochLockService locks = new EpochLockService(etcd.client(), key, epochKey, TTL_SECONDS);

        Ownership alice = locks.tryAcquire("alice").orElseThrow(() -> new AssertionError("tryAcquire(\"alice\") on a free lock must"
                + " return an ownership"));
        long created = read(key).orElseThrow(() -> new AssertionError("tryAcquire must create the lock key " + key)).getCreateRevision();

        assertThat(Tokens.epoch(alice.token())).as("the epoch in alice's token %d, with the epoch key at 3", alice.token()).isEqualTo(3);
        assertThat(Tokens.revision(alice.token())).as("the revision in alice's token: the lock key's create_revision %d", created)
                .isEqualTo(created);
        locks.release(alice);
    }

    @Test
    @DisplayName("Without an epoch key the epoch is 0, so the token is the create_revision itself")
    void missingEpochKeyIsEpochZero() throws Exception {
        String key = Etcd.uniqueKey("public-epoch-zero");
        EpochLockService locks = new EpochLockService(etcd.client(), key, key + "-epoch", TTL_SECONDS);

        Ownership alice = locks.tryAcquire("alice").orElseThrow(() -> new AssertionError("tryAcquire(\"alice\") on a free lock must"
                + " return an ownership"));

        assertThat(alice.token()).as("alice's token with no epoch key: epoch 0, so the lock key's create_revision")
                .isEqualTo(read(key).orElseThrow().getCreateRevision());
        locks.release(alice);
    }

    @Test
    @DisplayName("A held lock is not taken again; its holder's release deletes the key, and then the lock is free")
    void heldLockIsRefusedAndReleaseFreesIt() throws Exception {
        String key = Etcd.uniqueKey("public-epoch-held");
        EpochLockService locks = new EpochLockService(etcd.client(), key, key + "-epoch", TTL_SECONDS);
        Ownership alice = locks.tryAcquire("alice").orElseThrow(() -> new AssertionError("tryAcquire(\"alice\") on a free lock must"
                + " return an ownership"));

        assertThat(locks.tryAcquire("bob")).as("tryAcquire(\"bob\") while alice holds the lock").isEmpty();
        assertThat(locks.release(alice)).as("release by the holder, alice, deletes the key").isTrue();
        assertThat(read(key)).as("the lock key %s after alice's release", key).isEmpty();
        Optional<Ownership> bob = locks.tryAcquire("bob");
        assertThat(bob).as("tryAcquire(\"bob\") once alice released").isPresent();
        locks.release(bob.get());
    }

    @Test
    @DisplayName("An ownership of another epoch, with the same revision, does not release the holder's key")
    void ownershipOfAnotherEpochDoesNotRelease() throws Exception {
        String key = Etcd.uniqueKey("public-epoch-other");
        String epochKey = key + "-epoch";
        put(epochKey, "2");
        EpochLockService locks = new EpochLockService(etcd.client(), key, epochKey, TTL_SECONDS);
        Ownership holder = locks.tryAcquire("alice").orElseThrow(() -> new AssertionError("tryAcquire(\"alice\") on a free lock must"
                + " return an ownership"));
        long revision = Tokens.revision(holder.token());
        // The ownership of an earlier epoch had a lease of its own.
        long oldLease = etcd.client().getLeaseClient().grant(TTL_SECONDS).get(5, TimeUnit.SECONDS).getID();
        Ownership before = new Ownership("alice", Tokens.compose(1, revision), oldLease);

        assertThat(locks.release(before)).as("release with token %d (epoch 1, revision %d) while the epoch key holds 2", before.token(),
                revision).isFalse();
        assertThat(read(key)).as("the holder's key after a release from another epoch").isPresent();
        locks.release(holder);
    }

    private static void put(String key, String value) throws Exception {
        etcd.client().getKVClient().put(ByteSequence.from(key, StandardCharsets.UTF_8), ByteSequence.from(value, StandardCharsets.UTF_8))
                .get(5, TimeUnit.SECONDS);
    }

    private static Optional<KeyValue> read(String key) throws Exception {
        List<KeyValue> kvs = etcd.client().getKVClient().get(ByteSequence.from(key, StandardCharsets.UTF_8)).get(5, TimeUnit.SECONDS).getKvs();
        return kvs.isEmpty() ? Optional.empty() : Optional.of(kvs.get(0));
    }
}
