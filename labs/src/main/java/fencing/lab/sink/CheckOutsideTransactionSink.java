package fencing.lab.sink;

import fencing.sink.ConnectionSource;
import fencing.sink.FencedSink;
import fencing.sink.Sink;
import fencing.sink.SinkException;
import fencing.sink.SinkState;
import fencing.sink.WriteResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/**
 * A deliberately broken fenced sink, kept as a teaching example: it compares the token outside the transaction.
 *
 * <p>It reads the high-water mark on its own, with no transaction open, decides, and only then opens
 * a transaction to store the value and the token. Between the check and the write another writer can
 * commit a higher token, and this sink will still store the older writer's value over it, and even
 * lower the mark. {@link FencedSink} does the same steps inside one {@code BEGIN IMMEDIATE}
 * transaction, so the mark it compares against is the mark it updates. The {@code --case
 * check-outside-transaction} study widens the gap on purpose with a {@link Pause}.
 */
public final class CheckOutsideTransactionSink implements Sink {

    /** Called between the check and the write, where the race window is. */
    @FunctionalInterface
    public interface Pause {

        /** Runs after a write with {@code token} passed the check against {@code markSeen}, before it is stored. */
        void betweenCheckAndWrite(long token, long markSeen);
    }

    private final ConnectionSource db;
    private final Pause pause;

    /** Creates the broken sink over {@code db} with no injected pause: the window is there, only narrow. */
    public CheckOutsideTransactionSink(ConnectionSource db) {
        this(db, (token, markSeen) -> { });
    }

    /** Creates the broken sink over {@code db}, calling {@code pause} in the window between check and write. */
    public CheckOutsideTransactionSink(ConnectionSource db, Pause pause) {
        this.db = Objects.requireNonNull(db, "db");
        this.pause = Objects.requireNonNull(pause, "pause");
    }

    @Override
    public WriteResult write(long token, String value) {
        // The defect: this read commits before the decision is acted on, so the mark can move in between.
        SinkState seen = read();
        if (token < seen.highWaterMark()) {
            return new WriteResult(false, seen.highWaterMark(), seen.value());
        }
        pause.betweenCheckAndWrite(token, seen.highWaterMark());
        try (Connection connection = db.open(); Statement control = connection.createStatement()) {
            control.execute("BEGIN IMMEDIATE");
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE sink_state SET value = ?, high_water_mark = ? WHERE id = 1")) {
                update.setString(1, value);
                update.setLong(2, token);
                update.executeUpdate();
                SinkState after = read(connection);
                control.execute("COMMIT");
                return new WriteResult(true, after.highWaterMark(), after.value());
            } catch (SQLException | RuntimeException e) {
                control.execute("ROLLBACK");
                throw e;
            }
        } catch (SQLException e) {
            throw new SinkException("the check-outside-transaction sink could not store a write with token " + token, e);
        }
    }

    @Override
    public SinkState read() {
        try (Connection connection = db.open()) {
            return read(connection);
        } catch (SQLException e) {
            throw new SinkException("the check-outside-transaction sink could not read its state from " + db, e);
        }
    }

    private static SinkState read(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT value, high_water_mark FROM sink_state WHERE id = 1")) {
            if (!row.next()) {
                throw new SQLException("sink_state has no row 1: the database was not created by ConnectionSource.sqlite");
            }
            return new SinkState(row.getString(1), row.getLong(2));
        }
    }
}
