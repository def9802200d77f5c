package fencing.sink;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/**
 * A fenced counter that applies each request once: fencing keeps stale owners out, the request ids
 * keep an owner's retries from repeating their effect.
 *
 * <p>Within one ownership generation a high-water mark accepts equal tokens, so fencing does not
 * deduplicate the owner's repeated writes: generation freshness and operation deduplication protect
 * different invariants. The ledger keeps both in SQLite: {@code ledger_state} (total and mark) and
 * {@code ledger_requests} (each request id with its token and verdict).
 */
public final class IdempotentLedger {

    private final ConnectionSource db;

    /** Creates a ledger over {@code db}. */
    public IdempotentLedger(ConnectionSource db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    /**
     * Offers request {@code requestId}, made with {@code token}, to add {@code amount} to the total.
     *
     * <p>In ONE {@code BEGIN IMMEDIATE} transaction: a {@code requestId} already recorded returns its
     * recorded verdict with {@code duplicate = true} and changes nothing; otherwise fence
     * ({@code token >= high_water_mark}), and if accepted add {@code amount} to the total and raise the
     * mark; record the {@code requestId} with its verdict; commit. A request is known by its id alone: a
     * retry with another token or amount is still a duplicate. A duplicate reports the current mark and
     * total.
     *
     * @return the verdict and the ledger's state after the call
     * @throws IllegalArgumentException if {@code requestId} is {@code null} or blank; nothing changes
     * @throws ArithmeticException if the total would overflow; nothing changes
     */
    public RequestResult add(long token, String requestId, long amount) {
        if (requestId == null || requestId.isBlank()) {
            throw new IllegalArgumentException("a request needs an id, neither null nor blank, to be applied once");
        }
        try (Connection connection = db.open(); Statement control = connection.createStatement()) {
            // One transaction for the lookup, the effect and the record: a retry racing this one waits
            // for the write lock and then finds the record.
            control.execute("BEGIN IMMEDIATE");
            try {
                RequestResult result = apply(connection, token, requestId, amount);
                control.execute("COMMIT");
                return result;
            } catch (SQLException | RuntimeException e) {
                control.execute("ROLLBACK");
                throw e;
            }
        } catch (SQLException e) {
            throw new SinkException("the ledger could not decide on request " + requestId + " with token " + token, e);
        }
    }

    private static RequestResult apply(Connection connection, long token, String requestId, long amount) throws SQLException {
        long total;
        long mark;
        try (Statement read = connection.createStatement();
             ResultSet row = read.executeQuery("SELECT total, high_water_mark FROM ledger_state WHERE id = 1")) {
            if (!row.next()) {
                throw new SQLException("ledger_state has no row 1: the database was not created by ConnectionSource.sqlite");
            }
            total = row.getLong(1);
            mark = row.getLong(2);
        }
        try (PreparedStatement find = connection.prepareStatement("SELECT accepted FROM ledger_requests WHERE request_id = ?")) {
            find.setString(1, requestId);
            try (ResultSet seen = find.executeQuery()) {
                if (seen.next()) {
                    return new RequestResult(seen.getBoolean(1), true, mark, total);
                }
            }
        }
        boolean accepted = token >= mark;
        if (accepted) {
            total = Math.addExact(total, amount);
            mark = token;
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE ledger_state SET total = ?, high_water_mark = ? WHERE id = 1")) {
                update.setLong(1, total);
                update.setLong(2, mark);
                update.executeUpdate();
            }
        }
        try (PreparedStatement record = connection.prepareStatement(
                "INSERT INTO ledger_requests (request_id, token, accepted) VALUES (?, ?, ?)")) {
            record.setString(1, requestId);
            record.setLong(2, token);
            record.setBoolean(3, accepted);
            record.executeUpdate();
        }
        return new RequestResult(accepted, false, mark, total);
    }

    /** Returns the ledger's total, as stored in {@code ledger_state}. */
    public long total() {
        try (Connection connection = db.open();
             Statement read = connection.createStatement();
             ResultSet row = read.executeQuery("SELECT total FROM ledger_state WHERE id = 1")) {
            if (!row.next()) {
                throw new SQLException("ledger_state has no row 1: the database was not created by ConnectionSource.sqlite");
            }
            return row.getLong(1);
        } catch (SQLException e) {
            throw new SinkException("the ledger could not read its total", e);
        }
    }
}
