package fencing.etcd;

import fencing.sink.OwnerCheck;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks etcd whether a token is the current holder's: the lock key exists now and was created at that revision.
 *
 * <p>This is how a resource checks a sequencer with the lock service: instead of trusting the
 * highest token it has seen, it asks, on every write, who holds the lock now. It checks
 * {@link EtcdLockService}'s tokens, whose token is the lock key's create_revision.
 *
 * <p>Every call to etcd waits at most 5 seconds (for example {@code future.get(5, TimeUnit.SECONDS)}), never without a
 * limit. A call that fails, or does not answer in time, is reported by throwing {@link IllegalStateException} that
 * says what etcd said or that it did not answer (the lab's chaos writers catch exactly that when a call outlives a
 * freeze), never by a wait that hangs, a swallowed error or a made-up answer.
 */
public final class EtcdOwnerCheck implements OwnerCheck {

    private static final long TIMEOUT_SECONDS = 5;

    private final Client client;
    private final String lockKey;

    /**
     * Creates an owner check for one lock key.
     *
     * @param client  a connected jetcd client
     * @param lockKey the key that stands for the lock
     */
    public EtcdOwnerCheck(Client client, String lockKey) {
        this.client = client;
        this.lockKey = lockKey;
    }

    /**
     * Tells whether {@code token} is the current holder's: the lock key exists now (a linearizable read,
     * not a serializable one) and its create_revision equals {@code token}.
     *
     * <p>Tokens {@code <= 0} are never current. Compare the create_revision, not the value, the lease
     * or the key's version: only the create_revision is the token a holder was granted.
     */
    @Override
    public boolean isCurrent(long token) {
        // No guard for tokens <= 0 is needed: a key's create_revision is at least 1, so they never match.
        // GetOption.DEFAULT is linearizable: etcd answers only after confirming it is still the leader, so
        // a lock taken over a moment ago on another member is already seen here.
        List<KeyValue> kvs = await(client.getKVClient().get(ByteSequence.from(lockKey, StandardCharsets.UTF_8),
                GetOption.DEFAULT)).getKvs();
        return !kvs.isEmpty() && kvs.get(0).getCreateRevision() == token;
    }

    private static <T> T await(CompletableFuture<T> call) {
        try {
            return call.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking etcd for the lock's holder", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("etcd could not say who holds the lock: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            call.cancel(true);
            throw new IllegalStateException("etcd did not say who holds the lock within " + TIMEOUT_SECONDS + " s", e);
        }
    }
}
