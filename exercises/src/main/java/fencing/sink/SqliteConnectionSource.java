package fencing.sink;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteConfig;

/** The SQLite connection source behind {@link ConnectionSource#sqlite(Path)}. */
final class SqliteConnectionSource implements ConnectionSource {

    /** How long a writer waits for another writer's transaction before SQLite gives up. */
    static final int BUSY_TIMEOUT_MILLIS = 10_000;

    private final Path file;
    private final String url;
    private final SQLiteConfig config;
    private volatile boolean schemaReady;

    SqliteConnectionSource(Path file) {
        if (file == null) {
            throw new IllegalArgumentException("the sink needs a database file, got null");
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException("the sink's database must be a file, not a directory: " + file);
        }
        this.file = file.toAbsolutePath();
        this.url = "jdbc:sqlite:" + this.file;
        this.config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
    }

    @Override
    public Connection open() throws SQLException {
        Connection connection = config.createConnection(url);
        if (!schemaReady) {
            createSchema(connection);
        }
        return connection;
    }

    private synchronized void createSchema(Connection connection) throws SQLException {
        if (schemaReady) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            statement.executeUpdate("CREATE TABLE IF NOT EXISTS sink_state ("
                    + "id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT, high_water_mark INTEGER NOT NULL)");
            statement.executeUpdate("INSERT OR IGNORE INTO sink_state VALUES (1, NULL, 0)");
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        schemaReady = true;
    }

    @Override
    public String toString() {
        return "SQLite " + file;
    }
}
