package fencing.etcd;

import fencing.sink.OwnerCheck;
import io.etcd.jetcd.Client;

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
        throw new UnsupportedOperationException(
                "Not implemented yet: EtcdOwnerCheck.isCurrent — read the lock key linearizably; current iff it exists "
                        + "and its create_revision == token (tokens <= 0 never are)");
    }
}
