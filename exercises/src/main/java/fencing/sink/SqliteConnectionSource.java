package fencing.sink;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** The SQLite connection source behind {@link ConnectionSource#sqlite(Path)}. */
final class SqliteConnectionSource implements ConnectionSource {

    /** How long a writer waits for another writer's transaction before SQLite gives up. */
    static final int BUSY_TIMEOUT_MILLIS = 10_000;

    private static final long RETRY_PAUSE_MILLIS = 10;

    private static final String[] SCHEMA = {
        "CREATE TABLE IF NOT EXISTS sink_state ("
                + "id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT, high_water_mark INTEGER NOT NULL)",
        "INSERT OR IGNORE INTO sink_state VALUES (1, NULL, 0)",
        "CREATE TABLE IF NOT EXISTS ledger_state ("
                + "id INTEGER PRIMARY KEY CHECK (id = 1), total INTEGER NOT NULL, high_water_mark INTEGER NOT NULL)",
        "INSERT OR IGNORE INTO ledger_state VALUES (1, 0, 0)",
        "CREATE TABLE IF NOT EXISTS ledger_requests ("
                + "request_id TEXT PRIMARY KEY, token INTEGER NOT NULL, accepted INTEGER NOT NULL)",
    };

    private final Path file;
    private final String url;
    private final SQLiteConfig config;

    SqliteConnectionSource(Path file) {
        if (file == null) {
            throw new IllegalArgumentException("the sink needs a database file, got null");
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException("the sink's database must be a file, not a directory: " + file);
        }
        this.file = file.toAbsolutePath();
        this.url = "jdbc:sqlite:" + this.file;
        // Connections leave the journal mode alone: switching a fresh file to WAL from several
        // connections at once can fail with SQLITE_BUSY, so the file is switched once, in prepare().
        this.config = new SQLiteConfig();
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        prepare();
    }

    /**
     * Switches the file to WAL journaling and creates the schema, once, before any connection is handed out.
     *
     * <p>Several sources may prepare one fresh file at the same moment (several sink processes starting
     * together); SQLite answers BUSY without waiting while another connection switches the journal
     * mode, so a BUSY answer is retried until the busy timeout has passed.
     */
    private void prepare() {
        SQLiteConfig first = new SQLiteConfig();
        first.setJournalMode(SQLiteConfig.JournalMode.WAL);
        first.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        first.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BUSY_TIMEOUT_MILLIS);
        while (true) {
            try (Connection connection = first.createConnection(url); Statement statement = connection.createStatement()) {
                for (String sql : SCHEMA) {
                    statement.executeUpdate(sql);
                }
                return;
            } catch (SQLException e) {
                if (!isBusy(e) || System.nanoTime() > deadline) {
                    throw new SinkException("could not prepare the sink's database " + this.file + ": " + e.getMessage(), e);
                }
            }
            pause();
        }
    }

    private static boolean isBusy(SQLException e) {
        return e instanceof SQLiteException busy
                && (busy.getResultCode().code & 0xFF) == SQLiteErrorCode.SQLITE_BUSY.code;
    }

    private void pause() {
        try {
            Thread.sleep(RETRY_PAUSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SinkException("interrupted while preparing the sink's database " + file, e);
        }
    }

    @Override
    public Connection open() throws SQLException {
        return config.createConnection(url);
    }

    @Override
    public String toString() {
        return "SQLite " + file;
    }
}
