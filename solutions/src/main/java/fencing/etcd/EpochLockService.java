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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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

    private static final long TIMEOUT_SECONDS = 5;

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
        long leaseId = await(client.getLeaseClient().grant(ttlSeconds)).getID();
        ByteSequence key = bytes(lockKey);
        TxnResponse txn = await(client.getKVClient().txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.version(0)))
                .Then(Op.put(key, bytes(owner), PutOption.builder().withLeaseId(leaseId).build()),
                        Op.get(key, GetOption.DEFAULT),
                        Op.get(bytes(epochKey), GetOption.DEFAULT))
                .commit());
        if (!txn.isSucceeded()) {
            await(client.getLeaseClient().revoke(leaseId));
            return Optional.empty();
        }
        // Both reads belong to this Txn: the epoch is the one in force when this key was created.
        KeyValue created = txn.getGetResponses().get(0).getKvs().get(0);
        long epoch = epochOf(txn.getGetResponses().get(1).getKvs(), epochKey);
        return Optional.of(new Ownership(owner, Tokens.compose(epoch, created.getCreateRevision()), leaseId));
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
        long epoch = Tokens.epoch(ownership.token());
        ByteSequence epochBytes = bytes(epochKey);
        Cmp sameEpoch = epoch == 0
                ? new Cmp(epochBytes, Cmp.Op.EQUAL, CmpTarget.version(0))
                : new Cmp(epochBytes, Cmp.Op.EQUAL, CmpTarget.value(bytes(Long.toString(epoch))));
        ByteSequence key = bytes(lockKey);
        TxnResponse txn = await(client.getKVClient().txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(Tokens.revision(ownership.token()))), sameEpoch)
                .Then(Op.delete(key, DeleteOption.DEFAULT))
                .commit());
        revokeIfAlive(ownership.leaseId());
        return txn.isSucceeded();
    }

    /** Reads the epoch from the epoch key's value, 0 when the key is absent. */
    private static long epochOf(List<KeyValue> kvs, String epochKey) {
        if (kvs.isEmpty()) {
            return 0;
        }
        String text = kvs.get(0).getValue().toString(StandardCharsets.UTF_8).strip();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("the epoch key " + epochKey + " must hold a decimal epoch, holds '" + text + "'", e);
        }
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
