package fencing.sink;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/**
 * An unfenced sink: it never consults a token and stores every value.
 *
 * <p>Provided code. Its high-water mark stays 0: it has none to keep.
 */
public final class PlainSink implements Sink {

    private final ConnectionSource db;

    /** Creates a plain sink over {@code db}. */
    public PlainSink(ConnectionSource db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    @Override
    public WriteResult write(long token, String value) {
        try (Connection connection = db.open(); Statement control = connection.createStatement()) {
            control.execute("BEGIN IMMEDIATE");
            try (PreparedStatement update = connection.prepareStatement("UPDATE sink_state SET value = ? WHERE id = 1")) {
                update.setString(1, value);
                update.executeUpdate();
                SinkState after = SinkStates.read(connection);
                control.execute("COMMIT");
                return new WriteResult(true, after.highWaterMark(), after.value());
            } catch (SQLException e) {
                control.execute("ROLLBACK");
                throw e;
            }
        } catch (SQLException e) {
            throw new SinkException("the plain sink could not store a write with token " + token, e);
        }
    }

    @Override
    public SinkState read() {
        return SinkStates.read(db);
    }
}
