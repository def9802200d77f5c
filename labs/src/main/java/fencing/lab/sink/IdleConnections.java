package fencing.lab.sink;

import fencing.sink.ConnectionSource;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One idle connection to each database file the sink server serves, held for the server's life.
 *
 * <p>The sinks open a connection per call and close it, as the exercise's code does. When that close is the file's last,
 * SQLite checkpoints the write-ahead log into the database, several more fsyncs on every write; with this connection
 * open, a close is never the last, and the log is checkpointed only as it grows, by SQLite's own rule. A commit still
 * syncs the log as before, so no write is any less durable. The idle connection holds no lock.
 */
final class IdleConnections implements AutoCloseable {

    private final List<Connection> open;

    private IdleConnections(List<Connection> open) {
        this.open = open;
    }

    /** Opens one connection to each {@code *.db} file in {@code dir}, which the server's sinks and ledgers have made. */
    static IdleConnections hold(Path dir) throws IOException {
        List<Connection> open = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.db")) {
            for (Path file : files) {
                open.add(ConnectionSource.sqlite(file).open());
            }
        } catch (SQLException e) {
            new IdleConnections(open).close();
            throw new IOException("could not open an idle connection to a sink database in " + dir + ": " + e.getMessage(), e);
        }
        return new IdleConnections(open);
    }

    /**
     * Closes every connection, each even when one fails.
     *
     * @throws IllegalStateException naming the first that failed, the others suppressed in it
     */
    @Override
    public void close() {
        IllegalStateException failed = null;
        for (Connection connection : open) {
            try {
                connection.close();
            } catch (SQLException e) {
                if (failed == null) {
                    failed = new IllegalStateException("an idle connection to a sink database did not close: " + e.getMessage(), e);
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }
}
