package fencing.sink;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Opens connections to the sink's database.
 *
 * <p>Provided code. A sink opens one connection per call and closes it when the call ends.
 */
@FunctionalInterface
public interface ConnectionSource {

    /** Opens a new connection; the caller closes it. */
    Connection open() throws SQLException;

    /**
     * Returns a source of connections to the SQLite database in {@code file}.
     *
     * <p>Connections use WAL journaling, {@code synchronous=FULL} and a busy timeout, so that a
     * writer waits for another writer's transaction instead of failing at once. The file is prepared
     * once, when the source is created (WAL journaling and the schema), so that no connection's
     * opening can race another's:
     * <pre>{@code
     * CREATE TABLE IF NOT EXISTS sink_state (id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT, high_water_mark INTEGER NOT NULL);
     * INSERT OR IGNORE INTO sink_state VALUES (1, NULL, 0);
     * CREATE TABLE IF NOT EXISTS ledger_state (id INTEGER PRIMARY KEY CHECK (id = 1), total INTEGER NOT NULL, high_water_mark INTEGER NOT NULL);
     * INSERT OR IGNORE INTO ledger_state VALUES (1, 0, 0);
     * CREATE TABLE IF NOT EXISTS ledger_requests (request_id TEXT PRIMARY KEY, token INTEGER NOT NULL, accepted INTEGER NOT NULL);
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code file} is {@code null} or a directory
     * @throws SinkException if the file cannot be prepared
     */
    static ConnectionSource sqlite(Path file) {
        return new SqliteConnectionSource(file);
    }
}
