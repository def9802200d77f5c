package fencing.sink;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/** Wrong: the check reads the mark before the transaction begins. */
public final class FencedSink implements Sink {

    private final ConnectionSource db;

    public FencedSink(ConnectionSource db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    @Override
    public WriteResult write(long token, String value) {
        try (Connection connection = db.open(); Statement control = connection.createStatement()) {
            SinkState current = readState(connection);
            if (token < current.highWaterMark()) {
                return new WriteResult(false, current.highWaterMark(), current.value());
            }
            control.execute("BEGIN IMMEDIATE");
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE sink_state SET value = ?, high_water_mark = ? WHERE id = 1")) {
                update.setString(1, value);
                update.setLong(2, token);
                update.executeUpdate();
                control.execute("COMMIT");
            } catch (SQLException e) {
                control.execute("ROLLBACK");
                throw e;
            }
            return new WriteResult(true, token, value);
        } catch (SQLException e) {
            throw new SinkException("the fenced sink could not decide on a write with token " + token, e);
        }
    }

    private static SinkState readState(Connection connection) throws SQLException {
        try (Statement read = connection.createStatement();
             ResultSet row = read.executeQuery("SELECT value, high_water_mark FROM sink_state WHERE id = 1")) {
            row.next();
            return new SinkState(row.getString(1), row.getLong(2));
        }
    }

    @Override
    public SinkState read() {
        try (Connection connection = db.open()) {
            return readState(connection);
        } catch (SQLException e) {
            throw new SinkException("the fenced sink could not read its state", e);
        }
    }
}
