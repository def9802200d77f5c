package fencing.sink;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The grader's own look at a sink's SQLite file, without going through any sink.
 *
 * <p>Besides reading and setting the row, it can install a commit log: triggers that append every
 * change of {@code sink_state} to a table of the grader's. The rows commit or roll back with the
 * change that made them, and SQLite lets one writer at a time in, so the log's order is the order
 * in which changes were committed.
 */
final class SinkTable {

    /** One committed change of {@code sink_state}, in commit order. */
    record Change(long seq, String value, long highWaterMark) {
    }

    private static final int BUSY_TIMEOUT_MILLIS = 5_000;

    private SinkTable() {
    }

    /** Creates the sink's schema in {@code file} and sets its row to {@code value} and {@code mark}. */
    static void prepare(Path file, String value, long mark) {
        try (Connection schemaCreated = ConnectionSource.sqlite(file).open()) {
            set(file, value, mark);
        } catch (SQLException e) {
            throw new IllegalStateException("the grader could not create the sink's database " + file, e);
        }
    }

    /**
     * Opens a plain connection to an existing sink database.
     *
     * <p>Not through {@link ConnectionSource#sqlite(Path)}: a new source writes the schema on its first
     * connection, and that write would wait behind a paused writer's lock.
     */
    private static Connection open(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        return config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
    }

    /** Sets the row directly, as an operator with a SQL shell would. */
    static void set(Path file, String value, long mark) {
        try (Connection connection = open(file);
             PreparedStatement update = connection.prepareStatement(
                     "UPDATE sink_state SET value = ?, high_water_mark = ? WHERE id = 1")) {
            update.setString(1, value);
            update.setLong(2, mark);
            update.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("the grader could not set the sink's row in " + file, e);
        }
    }

    /** Reads the row directly. */
    static SinkState read(Path file) {
        try (Connection connection = open(file);
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT value, high_water_mark FROM sink_state WHERE id = 1")) {
            if (!row.next()) {
                throw new IllegalStateException("sink_state in " + file + " has no row 1");
            }
            return new SinkState(row.getString(1), row.getLong(2));
        } catch (SQLException e) {
            throw new IllegalStateException("the grader could not read the sink's row in " + file, e);
        }
    }

    /** Installs the commit log in {@code file}; from now on every committed change of the row is logged. */
    static void installCommitLog(Path file) {
        try (Connection connection = open(file);
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("CREATE TABLE grader_commit_log ("
                    + "seq INTEGER PRIMARY KEY AUTOINCREMENT, value TEXT, high_water_mark INTEGER)");
            for (String event : List.of("UPDATE", "INSERT")) {
                statement.executeUpdate("CREATE TRIGGER grader_log_" + event.toLowerCase() + " AFTER " + event
                        + " ON sink_state BEGIN INSERT INTO grader_commit_log (value, high_water_mark) "
                        + "VALUES (NEW.value, NEW.high_water_mark); END");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the grader could not install its commit log in " + file, e);
        }
    }

    /** Returns the logged changes, in commit order. */
    static List<Change> commitLog(Path file) {
        List<Change> changes = new ArrayList<>();
        try (Connection connection = open(file);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT seq, value, high_water_mark FROM grader_commit_log ORDER BY seq")) {
            while (rows.next()) {
                changes.add(new Change(rows.getLong(1), rows.getString(2), rows.getLong(3)));
            }
            return changes;
        } catch (SQLException e) {
            throw new IllegalStateException("the grader could not read its commit log in " + file, e);
        }
    }

    /**
     * Returns whether some connection holds the database's write lock right now.
     *
     * <p>Tries {@code BEGIN IMMEDIATE} without waiting and rolls back at once: SQLite answers BUSY
     * exactly when another connection has a write transaction open.
     */
    static boolean writeLockHeld(Path file) {
        try (Connection connection = open(file);
             Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA busy_timeout = 0");
            try {
                statement.execute("BEGIN IMMEDIATE");
            } catch (SQLiteException e) {
                if ((e.getResultCode().code & 0xFF) == SQLiteErrorCode.SQLITE_BUSY.code) {
                    return true;
                }
                throw e;
            }
            statement.execute("ROLLBACK");
            return false;
        } catch (SQLException e) {
            throw new IllegalStateException("the grader could not probe the write lock of " + file, e);
        }
    }
}
