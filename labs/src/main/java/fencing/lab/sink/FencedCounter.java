package fencing.lab.sink;

import fencing.sink.ConnectionSource;
import fencing.sink.RequestResult;
import fencing.sink.SinkException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/**
 * A fenced counter that does not know requests: it fences by token and adds the amount, every time it is asked.
 *
 * <p>Lab code, the contrast to the student's {@code IdempotentLedger}: its fence keeps stale owners out, but an
 * owner's retry of a request whose answer was lost carries the same token, passes the fence, and is added again.
 * It keeps its total and mark in {@code ledger_state} of its own file.
 */
public final class FencedCounter {

    private final ConnectionSource db;

    /** Creates a counter over {@code db}. */
    public FencedCounter(ConnectionSource db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    /** Adds {@code amount} if {@code token} is at least the mark, in one {@code BEGIN IMMEDIATE} transaction; {@code requestId} is not looked at. */
    public RequestResult add(long token, String requestId, long amount) {
        try (Connection connection = db.open(); Statement control = connection.createStatement()) {
            control.execute("BEGIN IMMEDIATE");
            try {
                RequestResult result = apply(connection, token, amount);
                control.execute("COMMIT");
                return result;
            } catch (SQLException | RuntimeException e) {
                control.execute("ROLLBACK");
                throw e;
            }
        } catch (SQLException e) {
            throw new SinkException("the fenced counter could not decide on request " + requestId + " with token " + token, e);
        }
    }

    private static RequestResult apply(Connection connection, long token, long amount) throws SQLException {
        RequestResult before = state(connection);
        if (token < before.highWaterMark()) {
            return before;
        }
        long total = Math.addExact(before.total(), amount);
        try (PreparedStatement update = connection.prepareStatement("UPDATE ledger_state SET total = ?, high_water_mark = ? WHERE id = 1")) {
            update.setLong(1, total);
            update.setLong(2, token);
            update.executeUpdate();
        }
        return new RequestResult(true, false, token, total);
    }

    /** Returns the counter's mark and total, as a rejected request would report them. */
    public RequestResult read() {
        try (Connection connection = db.open()) {
            return state(connection);
        } catch (SQLException e) {
            throw new SinkException("the fenced counter could not read its state", e);
        }
    }

    private static RequestResult state(Connection connection) throws SQLException {
        try (Statement read = connection.createStatement();
             ResultSet row = read.executeQuery("SELECT total, high_water_mark FROM ledger_state WHERE id = 1")) {
            if (!row.next()) {
                throw new SQLException("ledger_state has no row 1: the database was not created by ConnectionSource.sqlite");
            }
            return new RequestResult(false, false, row.getLong(2), row.getLong(1));
        }
    }
}
