package fencing.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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

    private static final long TIMEOUT_SECONDS = 5;

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
        long seen = Tokens.epoch(highestTokenSeen);
        ByteSequence key = ByteSequence.from(epochKey, StandardCharsets.UTF_8);
        long stored = epochOf(await(client.getKVClient().get(key)).getKvs(), epochKey);
        long next = Math.max(stored, seen) + 1;
        // Checked before writing: an epoch that no longer fits must leave the key as it was.
        Tokens.compose(next, 0);
        await(client.getKVClient().put(key, ByteSequence.from(Long.toString(next), StandardCharsets.UTF_8)));
        return next;
    }

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
