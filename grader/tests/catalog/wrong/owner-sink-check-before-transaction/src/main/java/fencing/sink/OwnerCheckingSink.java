package fencing.sink;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
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
        boolean current = isCurrent(token);
        try (Connection connection = db.open(); Statement control = connection.createStatement()) {
            control.execute("BEGIN IMMEDIATE");
            try {
                WriteResult result = checkAndWrite(connection, token, value, current);
                control.execute("COMMIT");
                return result;
            } catch (SQLException | RuntimeException e) {
                control.execute("ROLLBACK");
                throw e;
            }
        } catch (SQLException e) {
            throw new SinkException("the owner-checking sink could not decide on a write with token " + token, e);
        }
    }

    private WriteResult checkAndWrite(Connection connection, long token, String value, boolean current) throws SQLException {
        SinkState before = SinkStates.read(connection);
        if (token < before.highWaterMark() || !current) {
            return new WriteResult(false, before.highWaterMark(), before.value());
        }
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE sink_state SET value = ?, high_water_mark = ? WHERE id = 1")) {
            update.setString(1, value);
            update.setLong(2, token);
            update.executeUpdate();
        }
        return new WriteResult(true, token, value);
    }

    /** Asks the lock service; an owner that cannot be confirmed is not the owner (fail closed). */
    private boolean isCurrent(long token) {
        try {
            return owners.isCurrent(token);
        } catch (RuntimeException unconfirmed) {
            return false;
        }
    }

    /** Reads the sink's value and high-water mark, as {@link FencedSink} does. */
    @Override
    public SinkState read() {
        return SinkStates.read(db);
    }
}
