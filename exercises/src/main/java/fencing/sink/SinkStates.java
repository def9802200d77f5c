package fencing.sink;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Reading the sink's single row, shared by the provided sinks. */
final class SinkStates {

    private SinkStates() {
    }

    /** Reads the row on {@code connection}, inside whatever transaction it has open. */
    static SinkState read(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT value, high_water_mark FROM sink_state WHERE id = 1")) {
            if (!row.next()) {
                throw new SQLException("sink_state has no row 1: the database was not created by ConnectionSource.sqlite");
            }
            return new SinkState(row.getString(1), row.getLong(2));
        }
    }

    /** Reads the sink's state on a new connection from {@code db}. */
    static SinkState read(ConnectionSource db) {
        try (Connection connection = db.open()) {
            return read(connection);
        } catch (SQLException e) {
            throw new SinkException("could not read the sink's state from " + db, e);
        }
    }
}
