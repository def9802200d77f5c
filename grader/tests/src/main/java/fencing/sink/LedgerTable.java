package fencing.sink;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.SQLiteConfig;

/** The grader's own look at a ledger's SQLite file, without going through any ledger. */
final class LedgerTable {

    /** The ledger's single state row. */
    record State(long total, long highWaterMark) {
    }

    /** One recorded request, as {@code "id: token T, accepted|rejected"}. */
    static String request(String id, long token, boolean accepted) {
        return id + ": token " + token + ", " + (accepted ? "accepted" : "rejected");
    }

    private LedgerTable() {
    }

    /** Creates the schema in {@code file}, as a new source does. */
    static void prepare(Path file) {
        try (Connection created = ConnectionSource.sqlite(file).open()) {
            // The source creates the schema; the connection only proves the file opens.
        } catch (SQLException e) {
            throw new IllegalStateException("the grader could not create the ledger's database " + file, e);
        }
    }

    private static Connection open(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(5_000);
        return config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
    }

    /** Reads the state row directly. */
    static State read(Path file) {
        try (Connection connection = open(file);
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT total, high_water_mark FROM ledger_state WHERE id = 1")) {
            if (!row.next()) {
                throw new IllegalStateException("ledger_state in " + file + " has no row 1");
            }
            return new State(row.getLong(1), row.getLong(2));
        } catch (SQLException e) {
            throw new IllegalStateException("the grader could not read the ledger's state in " + file, e);
        }
    }

    /** Returns the recorded requests, sorted by id, each as {@link #request}. */
    static List<String> requests(Path file) {
        List<String> requests = new ArrayList<>();
        try (Connection connection = open(file);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT request_id, token, accepted FROM ledger_requests ORDER BY request_id")) {
            while (rows.next()) {
                requests.add(request(rows.getString(1), rows.getLong(2), rows.getLong(3) != 0));
            }
            return requests;
        } catch (SQLException e) {
            throw new IllegalStateException("the grader could not read the ledger's requests in " + file, e);
        }
    }

    /** Runs {@code sql} directly, as an operator with a SQL shell would. */
    static void execute(Path file, String sql) {
        try (Connection connection = open(file); Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("the grader could not run " + sql + " on " + file, e);
        }
    }
}
