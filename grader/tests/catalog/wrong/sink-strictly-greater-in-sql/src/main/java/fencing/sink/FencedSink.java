package fencing.sink;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/** Wrong: the SQL accepts only tokens strictly above the mark. */
public final class FencedSink implements Sink {

    private final ConnectionSource db;

    public FencedSink(ConnectionSource db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    @Override
    public WriteResult write(long token, String value) {
        try (Connection connection = db.open(); Statement control = connection.createStatement()) {
            control.execute("BEGIN IMMEDIATE");
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE sink_state SET value = ?, high_water_mark = ? WHERE id = 1 AND high_water_mark < ?")) {
                update.setString(1, value);
                update.setLong(2, token);
                update.setLong(3, token);
                boolean accepted = update.executeUpdate() == 1;
                SinkState after = readState(connection);
                control.execute("COMMIT");
                return new WriteResult(accepted, after.highWaterMark(), after.value());
            } catch (SQLException e) {
                control.execute("ROLLBACK");
                throw e;
            }
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
