package fencing.lab.run;

import fencing.lab.worker.WorkerReport;
import fencing.lab.common.Times;
import fencing.support.evidence.Evidence;
import fencing.support.Etcd;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

/** Sees the lock key go when etcd expires A's lease: by a watch from A's revision on, and by polling as a check. */
final class ExpiryWatch implements AutoCloseable {

    private static final long POLL_MICROS = 50_000;
    private static final long COUNTDOWN_MICROS = 500_000;

    private final Client client;
    private final ByteSequence key;
    private final long ttlSeconds;
    private final CompletableFuture<long[]> watchSaw = new CompletableFuture<>();
    private final Watch.Watcher watcher;

    /** Starts watching {@code key} from the revision after A's put: a deletion after this call cannot be missed. */
    ExpiryWatch(Client client, ByteSequence key, long aToken, long ttlSeconds) {
        this.client = client;
        this.key = key;
        this.ttlSeconds = ttlSeconds;
        this.watcher = client.getWatchClient().watch(key, WatchOption.builder().withRevision(aToken + 1).build(),
                Watch.listener(response -> {
                    for (WatchEvent event : response.getEvents()) {
                        if (event.getEventType() == WatchEvent.EventType.DELETE) {
                            watchSaw.complete(new long[] {Times.nowMicros(), event.getKeyValue().getModRevision()});
                        }
                    }
                }, watchSaw::completeExceptionally));
    }

    /** Waits until the key is gone, counting from {@code stopAt}, the moment {@code holds} names, and saying the lease's countdown. */
    Evidence.Expiry await(AHolds holds, long stopAt, long lastKeepAlive, long ttlLeft, BiConsumer<String, Object[]> progress) {
        long deadline = stopAt + (ttlSeconds + 10) * 1_000_000L;
        long nextPoll = Times.nowMicros();
        long nextCountdown = stopAt + COUNTDOWN_MICROS;
        String watchFailure = null;
        Long pollSaw = null;
        while (true) {
            long now = Times.nowMicros();
            if (watchSaw.isDone() && watchFailure == null) {
                if (!watchSaw.isCompletedExceptionally()) {
                    break;
                }
                watchFailure = watchSaw.handle((saw, error) -> String.valueOf(error)).join();
                progress.accept("the watch failed (%s); polling every %d ms instead", new Object[] {watchFailure, POLL_MICROS / 1000});
            }
            if (now >= nextPoll) {
                long count = Etcd.await(client.getKVClient().get(key, GetOption.builder().withCountOnly(true).build())).getCount();
                if (count == 0) {
                    pollSaw = Times.nowMicros();
                    break;
                }
                nextPoll = now + POLL_MICROS;
            }
            if (now >= nextCountdown) {
                long left = lastKeepAlive + ttlSeconds * 1_000_000L - now;
                if (left > 0) {
                    progress.accept("lease countdown: %s of %d s left, %s", new Object[] {Times.seconds(left), ttlSeconds, holds.meanwhile});
                } else {
                    progress.accept("lease TTL ran out %s ago; waiting for etcd to expire it and delete the key", new Object[] {Times.seconds(-left)});
                }
                // Whole ticks, so that a wait spent elsewhere (a failover's election) does not print a burst of late lines.
                while (nextCountdown <= now) {
                    nextCountdown += COUNTDOWN_MICROS;
                }
            }
            if (now > deadline) {
                throw new IllegalStateException("the lock key was still there " + (ttlSeconds + 10) + " s after " + holds.since + ":"
                        + " A's lease did not expire. Is A really frozen, and does tryAcquire attach the key to the lease?");
            }
            try {
                watchSaw.get(Math.min(5_000, Math.max(0, nextPoll - Times.nowMicros())), TimeUnit.MICROSECONDS);
            } catch (TimeoutException | ExecutionException stillWaitingOrFailed) {
                // Either the key is still there, or the watch failed: the loop's checks deal with both.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for A's lease to expire", e);
            }
        }
        long[] watched = watchSaw.isDone() && !watchSaw.isCompletedExceptionally() ? watchSaw.join() : null;
        String by = watched != null && (pollSaw == null || watched[0] <= pollSaw) ? "watch" : "poll";
        long observedAt = by.equals("watch") ? watched[0] : pollSaw;
        double wait = Times.millis(observedAt - stopAt);
        progress.accept("key gone %s after %s (seen by the %s%s; TTL %d s)", new Object[] {Times.seconds(observedAt - stopAt), holds.since, by,
                watched == null ? "" : ", deleted at revision " + watched[1], ttlSeconds});
        return new Evidence.Expiry(by, stopAt, lastKeepAlive, observedAt, wait, Math.round((wait - ttlSeconds * 1000.0) * 10) / 10.0,
                watched == null ? null : watched[1], ttlLeft,
                watched == null ? null : Times.millis(watched[0] - stopAt), pollSaw == null ? null : Times.millis(pollSaw - stopAt));
    }

    @Override
    public void close() {
        watcher.close();
    }

    /** Returns the last keepalive {@code worker} reported before {@code before}, or {@code fallback} if later. */
    static long lastKeepAlive(LabProcess<WorkerReport> worker, long fallback, long before) {
        long last = fallback;
        for (WorkerReport report : worker.seen()) {
            if (report instanceof WorkerReport.KeepAlive keepAlive && keepAlive.atMicros() < before) {
                last = Math.max(last, keepAlive.atMicros());
            }
        }
        return last;
    }
}
