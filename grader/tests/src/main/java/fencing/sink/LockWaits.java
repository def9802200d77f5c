package fencing.sink;

import fencing.grading.Backstop;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.sqlite.BusyHandler;

/**
 * Real SQLite connections that tell when a writer on one of them waits for a lock another connection holds: the event
 * that a second writer has got as far as the database lets it while the first is held still, which the grader waits for
 * instead of giving it a while.
 *
 * <p>SQLite calls a connection's busy handler each time a lock it needs is held by another; this one says so, then does
 * what the connection's busy timeout would: waits a moment and lets SQLite try again, for as long as that timeout.
 */
final class LockWaits implements ConnectionSource {

    /** As long as {@link ConnectionSource#sqlite}'s busy timeout: a writer gives up no sooner than it would without this. */
    private static final Duration BUSY_LIMIT = Duration.ofSeconds(10);
    private static final long RETRY_MILLIS = 1;
    private static final Map<Thread, CompletableFuture<Void>> WATCHED = new ConcurrentHashMap<>();

    private final ConnectionSource real;

    LockWaits(ConnectionSource real) {
        this.real = real;
    }

    @Override
    public Connection open() throws SQLException {
        Connection connection = real.open();
        BusyHandler.setHandler(connection, new Waiting());
        return connection;
    }

    @Override
    public String toString() {
        return real.toString();
    }

    /**
     * Runs {@code writer}, whose connections come from a {@link LockWaits}, and waits until {@code call} (the writer's
     * result) is done or the writer waits for a database lock, at most {@code limit}; returns whether the call is done.
     */
    static boolean doneBeforeItWaits(Thread writer, CompletableFuture<?> call, Duration limit) {
        CompletableFuture<Void> waits = new CompletableFuture<>();
        WATCHED.put(writer, waits);
        try {
            writer.start();
            Backstop.of(limit).get(CompletableFuture.anyOf(call, waits));
        } catch (TimeoutException neither) {
            // Neither ended nor waited for a lock: the writer is slow or stuck elsewhere; it is let go on as it is.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + writer.getName(), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(writer.getName() + "'s thread failed", e.getCause());
        } finally {
            WATCHED.remove(writer);
        }
        return call.isDone();
    }

    /** Says that the connection's thread waits for a lock, then waits as a busy timeout would. */
    private static final class Waiting extends BusyHandler {

        private long since;

        @Override
        protected int callback(int tries) {
            CompletableFuture<Void> watched = WATCHED.get(Thread.currentThread());
            if (watched != null) {
                watched.complete(null);
            }
            if (tries == 0) {
                since = System.nanoTime();
            } else if (System.nanoTime() - since > BUSY_LIMIT.toNanos()) {
                return 0;
            }
            try {
                Thread.sleep(RETRY_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 0;
            }
            return 1;
        }
    }
}
