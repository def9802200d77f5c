package fencing.sink;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/** Wrong: the mark is read on a second connection, not inside the writing transaction. */
public final class FencedSink implements Sink {

    private final ConnectionSource db;

    public FencedSink(ConnectionSource db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    @Override
    public WriteResult write(long token, String value) {
        try (Connection writer = db.open(); Statement control = writer.createStatement()) {
            SinkState current = read();
            if (token < current.highWaterMark()) {
                return new WriteResult(false, current.highWaterMark(), current.value());
            }
            control.execute("BEGIN IMMEDIATE");
            try (PreparedStatement update = writer.prepareStatement(
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

    @Override
    public SinkState read() {
        try (Connection reader = db.open(); Statement control = reader.createStatement()) {
            control.execute("BEGIN");
            try (ResultSet row = control.executeQuery("SELECT value, high_water_mark FROM sink_state WHERE id = 1")) {
                row.next();
                return new SinkState(row.getString(1), row.getLong(2));
            } finally {
                control.execute("COMMIT");
            }
        } catch (SQLException e) {
            throw new SinkException("the fenced sink could not read its state", e);
        }
    }
}
