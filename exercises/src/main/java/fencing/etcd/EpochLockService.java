package fencing.etcd;

import io.etcd.jetcd.Client;
import java.util.Optional;

/**
 * A lock in etcd whose fencing tokens survive a restore: {@code Tokens.compose(epoch, create_revision)}.
 *
 * <p>The same lock as {@link EtcdLockService}, one key created only if absent and attached to a short lease,
 * with one more key beside it: the epoch key, which holds the current epoch as decimal text (e.g. {@code 3})
 * and is absent while the epoch is 0. {@link Recovery} raises it after a restore, before anyone acquires, so
 * that every token issued afterwards is larger than every token issued before, although etcd's revisions went
 * back.
 *
 * <p>Every call to etcd waits at most 5 seconds (for example {@code future.get(5, TimeUnit.SECONDS)}), never without a
 * limit. A call that fails, or does not answer in time, is reported by throwing {@link IllegalStateException} that
 * says what etcd said or that it did not answer (the lab's chaos writers catch exactly that when a call outlives a
 * freeze), never by a wait that hangs, a swallowed error or a made-up answer.
 */
public final class EpochLockService {

    private final Client client;
    private final String lockKey;
    private final String epochKey;
    private final long ttlSeconds;

    /**
     * Creates a lock service for one lock key and its epoch key.
     *
     * @param client     a connected jetcd client
     * @param lockKey    the key that stands for the lock
     * @param epochKey   the key that holds the epoch as decimal text; absent means epoch 0
     * @param ttlSeconds the lease's time to live, in seconds
     */
    public EpochLockService(Client client, String lockKey, String epochKey, long ttlSeconds) {
        this.client = client;
        this.lockKey = lockKey;
        this.epochKey = epochKey;
        this.ttlSeconds = ttlSeconds;
    }

    /**
     * Makes one attempt to take the lock for {@code owner}.
     *
     * <p>Grant a lease of {@code ttlSeconds}; then, in one Txn, if {@code VERSION(lockKey) == 0} put
     * {@code lockKey = owner} attached to that lease and read the epoch key, in that same Txn, so that the epoch
     * is the one in force when the key was created (a missing epoch key is epoch 0). The token is
     * {@code Tokens.compose(epoch, create_revision)}. When the lock is held by someone else, revoke the new lease
     * and return empty.
     *
     * @return the ownership, or empty when the lock is held
     */
    public Optional<Ownership> tryAcquire(String owner) {
        throw new UnsupportedOperationException(
                "Not implemented yet: EpochLockService.tryAcquire — grant a lease; in ONE Txn put the key only if VERSION(key) == 0 AND read the epoch key; token = Tokens.compose(epoch, create_revision); if held, revoke the lease and return empty");
    }

    /**
     * Releases the lock if it is still this ownership's.
     *
     * <p>In one Txn, delete {@code lockKey} only if {@code CREATE_REVISION(lockKey) == Tokens.revision(token)}
     * and the epoch key still holds {@code Tokens.epoch(token)} (for epoch 0: the epoch key is absent); then
     * revoke the lease. Revisions repeat after a restore, so the revision alone would let an ownership from
     * before the restore delete a newer owner's key.
     *
     * @return {@code true} if the key was deleted
     */
    public boolean release(Ownership ownership) {
        throw new UnsupportedOperationException(
                "Not implemented yet: EpochLockService.release — in ONE Txn delete the key only if CREATE_REVISION(key) == Tokens.revision(token) AND the epoch key holds Tokens.epoch(token) (absent for 0); then revoke the lease");
    }
}
