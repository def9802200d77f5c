package fencing.sink;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/** A fenced sink whose transaction runs through a private helper handed a method reference. */
public final class FencedSink implements Sink {

    /** Work done inside the one {@code BEGIN IMMEDIATE} transaction. */
    @FunctionalInterface
    private interface InTransaction<T> {
        T run(Connection connection) throws SQLException;
    }

    private final ConnectionSource db;

    /** Creates a fenced sink over {@code db}. */
    public FencedSink(ConnectionSource db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    @Override
    public WriteResult write(long token, String value) {
        try {
            return immediately(connection -> compareAndWrite(connection, token, value));
        } catch (SQLException e) {
            throw new SinkException("the fenced sink could not decide on a write with token " + token, e);
        }
    }

    @Override
    public SinkState read() {
        try (Connection connection = db.open()) {
            return state(connection);
        } catch (SQLException e) {
            throw new SinkException("the fenced sink could not read its state", e);
        }
    }

    private <T> T immediately(InTransaction<T> work) throws SQLException {
        try (Connection connection = db.open(); Statement control = connection.createStatement()) {
            control.execute("BEGIN IMMEDIATE");
            try {
                T result = work.run(connection);
                control.execute("COMMIT");
                return result;
            } catch (SQLException | RuntimeException e) {
                control.execute("ROLLBACK");
                throw e;
            }
        }
    }

    private static SinkState state(Connection connection) throws SQLException {
        try (Statement read = connection.createStatement();
             ResultSet row = read.executeQuery("SELECT value, high_water_mark FROM sink_state WHERE id = 1")) {
            row.next();
            return new SinkState(row.getString(1), row.getLong(2));
        }
    }

    private static WriteResult compareAndWrite(Connection connection, long token, String value) throws SQLException {
        SinkState current = state(connection);
        if (token < current.highWaterMark()) {
            return new WriteResult(false, current.highWaterMark(), current.value());
        }
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE sink_state SET value = ?, high_water_mark = ? WHERE id = 1")) {
            update.setString(1, value);
            update.setLong(2, token);
            update.executeUpdate();
        }
        return new WriteResult(true, token, value);
    }
}
