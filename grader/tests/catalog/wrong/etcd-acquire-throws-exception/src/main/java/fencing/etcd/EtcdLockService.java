package fencing.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.common.exception.ErrorCode;
import io.etcd.jetcd.common.exception.EtcdExceptionFactory;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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

    private static final long TIMEOUT_SECONDS = 5;

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
    public Optional<Ownership> tryAcquire(String owner) throws Exception {
        long leaseId = await(client.getLeaseClient().grant(ttlSeconds)).getID();
        ByteSequence key = bytes(lockKey);
        TxnResponse txn = await(client.getKVClient().txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.version(0)))
                .Then(Op.put(key, bytes(owner), PutOption.builder().withLeaseId(leaseId).build()),
                        Op.get(key, GetOption.DEFAULT))
                .commit());
        if (!txn.isSucceeded()) {
            await(client.getLeaseClient().revoke(leaseId));
            return Optional.empty();
        }
        // Read in the same Txn as the put, so this is the key this Txn created, whatever happens after.
        KeyValue created = txn.getGetResponses().get(0).getKvs().get(0);
        return Optional.of(new Ownership(owner, created.getCreateRevision(), leaseId));
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
        ByteSequence key = bytes(lockKey);
        TxnResponse txn = await(client.getKVClient().txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(ownership.token())))
                .Then(Op.delete(key, DeleteOption.DEFAULT))
                .commit());
        revokeIfAlive(ownership.leaseId());
        return txn.isSucceeded();
    }

    private void revokeIfAlive(long leaseId) {
        try {
            client.getLeaseClient().revoke(leaseId).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            // A lease that already expired is not an error for release: there is nothing left to revoke.
            if (EtcdExceptionFactory.toEtcdException(e.getCause()).getErrorCode() != ErrorCode.NOT_FOUND) {
                throw new IllegalStateException("etcd could not revoke lease " + leaseId + ": " + e.getCause().getMessage(), e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while revoking lease " + leaseId, e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("etcd did not revoke lease " + leaseId + " within " + TIMEOUT_SECONDS + " s", e);
        }
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }

    private static <T> T await(CompletableFuture<T> call) {
        try {
            return call.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for etcd", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("etcd call failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            call.cancel(true);
            throw new IllegalStateException("etcd did not answer within " + TIMEOUT_SECONDS + " s", e);
        }
    }
}
