package fencing.sink;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/** Wrong: the mark it compares against lives in a field of this object. */
public final class FencedSink implements Sink {

    private final ConnectionSource db;
    private long highWaterMark;

    public FencedSink(ConnectionSource db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    @Override
    public synchronized WriteResult write(long token, String value) {
        if (token < highWaterMark) {
            return new WriteResult(false, highWaterMark, read().value());
        }
        try (Connection connection = db.open(); Statement control = connection.createStatement()) {
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
        } catch (SQLException e) {
            throw new SinkException("the fenced sink could not store a write with token " + token, e);
        }
        highWaterMark = token;
        return new WriteResult(true, token, value);
    }

    @Override
    public SinkState read() {
        try (Connection connection = db.open();
             Statement read = connection.createStatement();
             ResultSet row = read.executeQuery("SELECT value, high_water_mark FROM sink_state WHERE id = 1")) {
            row.next();
            return new SinkState(row.getString(1), row.getLong(2));
        } catch (SQLException e) {
            throw new SinkException("the fenced sink could not read its state", e);
        }
    }
}
