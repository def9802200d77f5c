package fencing.lab.worker;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.watch.WatchEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Tells a waiting chaos writer that the lock key was deleted, from a watch on it, so that it tries again then instead of polling.
 *
 * <p>A deletion seen after {@link #reset()} releases the next {@link #await(Duration)}, however soon it came: a writer resets,
 * tries, and waits, so a release or expiry between its try and its wait is never missed. The wait is bounded as well, so a
 * watch that lags (its stream reconnecting after a freeze) delays a writer by at most that bound, and a watch that fails
 * sends the writer to try at once. It never decides who holds the lock, which is still the {@code tryAcquire} Txn's alone.
 */
final class LockFreed implements AutoCloseable {

    private final Semaphore deletions = new Semaphore(0);
    private final Watch.Watcher watcher;

    private LockFreed(Client client, String key) {
        this.watcher = client.getWatchClient().watch(ByteSequence.from(key, StandardCharsets.UTF_8), Watch.listener(response -> {
            if (response.getEvents().stream().anyMatch(event -> event.getEventType() == WatchEvent.EventType.DELETE)) {
                deletions.release();
            }
        }, error -> deletions.release()));
    }

    /** Starts watching {@code key} for deletions. */
    static LockFreed watch(Client client, String key) {
        return new LockFreed(client, key);
    }

    /** Forgets the deletions seen so far: the next wait is for one after now. */
    void reset() {
        deletions.drainPermits();
    }

    /** Waits until a deletion after the last {@link #reset()} is seen, or {@code limit} has passed. */
    void await(Duration limit) throws InterruptedException {
        deletions.tryAcquire(limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        watcher.close();
    }
}
