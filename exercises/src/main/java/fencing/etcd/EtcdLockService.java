package fencing.etcd;

import io.etcd.jetcd.Client;
import java.util.Optional;

/**
 * A lock in etcd: one key, created only if absent and attached to a short lease, whose create_revision is the fencing token.
 *
 * <p>While the holder keeps its lease alive the key stays; when the holder stops (it crashed, or it
 * is paused), the lease expires, etcd deletes the key, and the next owner can create it again with
 * a larger create_revision.
 *
 * <p>The lock service itself need not be incorrect for a stale write to arrive: a holder paused past its lease
 * still believes it holds the lock, so the resource must check the token. Tokens taken from revisions grow only
 * as long as etcd's revision does: restoring etcd from an older snapshot can hand out revisions again (etcd's
 * recovery guide tells how to move the revision past the old one).
 *
 * <p>Every call to etcd waits at most 5 seconds (for example {@code future.get(5, TimeUnit.SECONDS)}), never without a
 * limit. A call that fails, or does not answer in time, is reported by throwing {@link IllegalStateException} that
 * says what etcd said or that it did not answer (the lab's chaos writers catch exactly that when a call outlives a
 * freeze), never by a wait that hangs, a swallowed error or a made-up answer.
 */
public final class EtcdLockService {

    private final Client client;
    private final String lockKey;
    private final long ttlSeconds;

    /**
     * Creates a lock service for one lock key.
     *
     * @param client     a connected jetcd client
     * @param lockKey    the key that stands for the lock
     * @param ttlSeconds the lease's time to live, in seconds
     */
    public EtcdLockService(Client client, String lockKey, long ttlSeconds) {
        this.client = client;
        this.lockKey = lockKey;
        this.ttlSeconds = ttlSeconds;
    }

    /**
     * Makes one attempt to take the lock for {@code owner}.
     *
     * <p>Grant a lease of {@code ttlSeconds}; then, in one Txn, if {@code VERSION(lockKey) == 0} put
     * {@code lockKey = owner} attached to that lease. The token is the created key's create_revision.
     * When the lock is held by someone else, revoke the new lease and return empty.
     *
     * @return the ownership, or empty when the lock is held
     */
    public Optional<Ownership> tryAcquire(String owner) {
        throw new UnsupportedOperationException(
                "Not implemented yet: EtcdLockService.tryAcquire — grant a lease; in ONE Txn put the key only if VERSION(key) == 0; token = the key's create_revision; if held, revoke the lease and return empty");
    }

    /**
     * Releases the lock if it is still this ownership's.
     *
     * <p>In one Txn, delete {@code lockKey} only if {@code CREATE_REVISION(lockKey) == ownership.token()},
     * so that a stale owner never deletes a newer owner's key; then revoke the lease.
     *
     * <p>A release identifies the ownership generation it was given, the key's create_revision, never just the
     * owner's name or the lease: the same owner name may have acquired the lock again since, with a newer key.
     * Revoke the ownership's lease whether or not the key was deleted. A lease that is already gone (it expired, so
     * etcd answers NOT_FOUND to the revoke) is not an error: there is nothing left to revoke, and release returns
     * {@code false} if the key was not deleted. jetcd fails the revoke's future with an
     * {@code io.grpc.StatusRuntimeException} whose status code is {@code NOT_FOUND} (the cause of {@code get()}'s
     * {@code ExecutionException}), not with jetcd's {@code EtcdException};
     * {@code EtcdExceptionFactory.toEtcdException(cause).getErrorCode()} reads the code of either.
     *
     * @return {@code true} if the key was deleted
     */
    public boolean release(Ownership ownership) {
        throw new UnsupportedOperationException(
                "Not implemented yet: EtcdLockService.release — in ONE Txn delete the key only if CREATE_REVISION(key) == token; then revoke the lease");
    }
}
