package fencing.etcd;

import io.etcd.jetcd.Client;

/**
 * What to run once after etcd was restored from a snapshot (or replaced), before any owner acquires.
 *
 * <p>The restored cluster's revisions count again from the snapshot's, so without a new epoch its next
 * owner's token would fall below tokens the sinks have already accepted: rejected, the rightful owner locked
 * out. Raising the epoch above every epoch seen puts every later token above every earlier one.
 *
 * <p>Every call to etcd waits at most 5 seconds (for example {@code future.get(5, TimeUnit.SECONDS)}), never without a
 * limit. A call that fails, or does not answer in time, is reported by throwing {@link IllegalStateException} that
 * says what etcd said or that it did not answer (the lab's chaos writers catch exactly that when a call outlives a
 * freeze), never by a wait that hangs, a swallowed error or a made-up answer.
 */
public final class Recovery {

    private Recovery() {
    }

    /**
     * Raises the epoch after a restore and returns the new one.
     *
     * <p>Write {@code epoch = max(epoch stored, Tokens.epoch(highestTokenSeen)) + 1} to {@code epochKey}, as
     * decimal text, and return it. {@code highestTokenSeen} is the sink's high-water mark: the restored epoch
     * key can be older than the epoch of tokens already accepted, so the stored value alone is not enough. It
     * need not be atomic: it runs before any owner acquires. A lock key restored from the snapshot expires with
     * its restored lease like any other holder's.
     *
     * @param client           a connected jetcd client on the restored cluster
     * @param epochKey         the key that holds the epoch; absent means epoch 0
     * @param highestTokenSeen the highest token any sink has accepted (its high-water mark)
     * @return the new epoch
     */
    public static long afterRestore(Client client, String epochKey, long highestTokenSeen) {
        throw new UnsupportedOperationException(
                "Not implemented yet: Recovery.afterRestore — write epoch = max(epoch stored, Tokens.epoch(highestTokenSeen)) + 1 to the epoch key and return it");
    }
}
