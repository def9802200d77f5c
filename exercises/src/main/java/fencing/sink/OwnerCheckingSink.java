package fencing.sink;

import java.util.Objects;

/**
 * A sink that accepts only the current owner's writes: a token must be at least the high-water mark
 * and, as the lock service sees it now, the current holder's.
 *
 * <p>A high-water mark alone accepts a late write from A after A's lease expired, as long as B, the
 * new owner, has not written yet. Asking the lock service on every write closes that gap, and rejects
 * a token nobody was ever granted.
 */
public final class OwnerCheckingSink implements Sink {

    private final ConnectionSource db;
    private final OwnerCheck owners;

    /** Creates a sink over {@code db} that asks {@code owners} whether a token is the current holder's. */
    public OwnerCheckingSink(ConnectionSource db, OwnerCheck owners) {
        this.db = Objects.requireNonNull(db, "db");
        this.owners = Objects.requireNonNull(owners, "owners");
    }

    /**
     * Offers a write with {@code token}: in ONE {@code BEGIN IMMEDIATE} transaction, read
     * {@code high_water_mark}; accept only if {@code token >= high_water_mark} AND
     * {@code owners.isCurrent(token)}, asked while the transaction holds SQLite's write lock; update value
     * and mark together; commit.
     *
     * <p>The check may be skipped when the token is already below the mark. If the check throws, the
     * write is rejected and nothing changes (fail closed). A rejection returns the unchanged state.
     *
     * @return the verdict and the state after the call
     */
    @Override
    public WriteResult write(long token, String value) {
        throw new UnsupportedOperationException(
                "Not implemented yet: OwnerCheckingSink.write — in ONE BEGIN IMMEDIATE transaction: read high_water_mark, "
                        + "accept only if token >= it AND owners.isCurrent(token) (asked while holding the write lock; "
                        + "if it throws, reject), update value and mark together, commit");
    }

    /** Reads the sink's value and high-water mark, as {@link FencedSink} does. */
    @Override
    public SinkState read() {
        throw new UnsupportedOperationException(
                "Not implemented yet: OwnerCheckingSink.read — read value and high_water_mark from sink_state");
    }
}
