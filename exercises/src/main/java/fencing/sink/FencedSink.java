package fencing.sink;

import java.util.Objects;

/**
 * A fenced sink: it keeps a high-water mark in SQLite and rejects any write whose token is below it.
 *
 * <p>The comparison and the update happen in one SQLite transaction, so no other writer can slip in
 * between the check and the write.
 *
 * <p>Graded structure rules: nothing in {@code fencing.sink} uses {@code fencing.etcd}, jetcd or
 * {@code LockService} (a sink cannot trust that a lock is still held), and the sink reads no clock
 * ({@code System.currentTimeMillis}, {@code System.nanoTime}, {@code java.time} {@code now()}, {@code new Date()},
 * {@code Clock}): staleness is decided by tokens alone. No retry loop is needed either: the connections from
 * {@link ConnectionSource} already wait for another writer's transaction (SQLite's busy timeout), so
 * {@code BEGIN IMMEDIATE} simply waits its turn.
 */
public final class FencedSink implements Sink {

    private final ConnectionSource db;

    /** Creates a fenced sink over {@code db}. */
    public FencedSink(ConnectionSource db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    /**
     * Offers a write with {@code token}: in ONE {@code BEGIN IMMEDIATE} transaction on one connection, read
     * {@code high_water_mark}, accept only if {@code token >= high_water_mark}, update value and mark together, commit.
     *
     * <p>Every call ends accepted or rejected: contention with another writer is not an error.
     *
     * @return the verdict and the state after the call
     */
    @Override
    public WriteResult write(long token, String value) {
        throw new UnsupportedOperationException(
                "Not implemented yet: FencedSink.write — in ONE BEGIN IMMEDIATE transaction: read high_water_mark, accept only if token >= it, update value and mark together, commit");
    }

    /** Reads the sink's value and high-water mark. */
    @Override
    public SinkState read() {
        throw new UnsupportedOperationException(
                "Not implemented yet: FencedSink.read — read value and high_water_mark from sink_state");
    }
}
