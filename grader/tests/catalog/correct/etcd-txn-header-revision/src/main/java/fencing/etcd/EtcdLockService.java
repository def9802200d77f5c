package fencing.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Correct, written differently: the token is the header revision of the Txn that created the key.
 *
 * <p>A Txn is applied at one revision, and the revision in its response header is the store's
 * revision right after it; when the Txn's only write is the put that creates the lock key, that
 * revision is the key's create_revision.
 */
public final class EtcdLockService {

    private final KV kv;
    private final Lease leases;
    private final ByteSequence key;
    private final long ttlSeconds;

    public EtcdLockService(Client client, String lockKey, long ttlSeconds) {
        this.kv = client.getKVClient();
        this.leases = client.getLeaseClient();
        this.key = ByteSequence.from(lockKey, StandardCharsets.UTF_8);
        this.ttlSeconds = ttlSeconds;
    }

    public Optional<Ownership> tryAcquire(String owner) {
        long lease = within5s(leases.grant(ttlSeconds)).getID();
        TxnResponse created = within5s(kv.txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.version(0)))
                .Then(Op.put(key, ByteSequence.from(owner, StandardCharsets.UTF_8), PutOption.builder().withLeaseId(lease).build()))
                .commit());
        if (created.isSucceeded()) {
            return Optional.of(new Ownership(owner, created.getHeader().getRevision(), lease));
        }
        within5s(leases.revoke(lease));
        return Optional.empty();
    }

    public boolean release(Ownership ownership) {
        boolean deleted = within5s(kv.txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(ownership.token())))
                .Then(Op.delete(key, DeleteOption.DEFAULT))
                .commit()).isSucceeded();
        // Time to live -1: the lease already expired, and there is nothing left to revoke.
        if (within5s(leases.timeToLive(ownership.leaseId(), io.etcd.jetcd.options.LeaseOption.DEFAULT)).getTTL() > 0) {
            within5s(leases.revoke(ownership.leaseId()));
        }
        return deleted;
    }

    private static <T> T within5s(Future<T> call) {
        try {
            return call.get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for etcd", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("etcd refused the call: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            call.cancel(true);
            throw new IllegalStateException("etcd did not answer within 5 s", e);
        }
    }
}
