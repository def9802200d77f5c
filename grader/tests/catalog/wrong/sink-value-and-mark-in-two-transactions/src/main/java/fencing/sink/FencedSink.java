package fencing.sink;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/** Wrong: value and mark are updated in two separate transactions. */
public final class FencedSink implements Sink {

    private final ConnectionSource db;

    public FencedSink(ConnectionSource db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    @Override
    public WriteResult write(long token, String value) {
        try (Connection connection = db.open(); Statement control = connection.createStatement()) {
            control.execute("BEGIN IMMEDIATE");
            long mark;
            String current;
            try (ResultSet row = control.executeQuery("SELECT value, high_water_mark FROM sink_state WHERE id = 1")) {
                row.next();
                current = row.getString(1);
                mark = row.getLong(2);
            }
            if (token < mark) {
                control.execute("COMMIT");
                return new WriteResult(false, mark, current);
            }
            try (PreparedStatement update = connection.prepareStatement("UPDATE sink_state SET value = ? WHERE id = 1")) {
                update.setString(1, value);
                update.executeUpdate();
            }
            control.execute("COMMIT");

            control.execute("BEGIN IMMEDIATE");
            try (PreparedStatement update = connection.prepareStatement("UPDATE sink_state SET high_water_mark = ? WHERE id = 1")) {
                update.setLong(1, token);
                update.executeUpdate();
            }
            control.execute("COMMIT");
            return new WriteResult(true, token, value);
        } catch (SQLException e) {
            throw new SinkException("the fenced sink could not decide on a write with token " + token, e);
        }
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
