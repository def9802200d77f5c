package fencing.basics;

/**
 * A fenced resource: it remembers the highest token it has accepted and rejects older ones.
 *
 * <p>Only the resource sees every write, so only the resource can tell that a writer is stale: a
 * write is accepted only if its token is at least the highest token seen so far.
 *
 * <p>Graded structure rules: the resource never uses {@link LockService} (its own mark decides; the lock service
 * cannot tell a stale holder from a current one), and it reads no clock ({@code System.currentTimeMillis},
 * {@code System.nanoTime}, {@code java.time}, {@code Date}, {@code Calendar}): a write is stale because its token
 * is below the mark, never because time passed.
 *
 * <p>No method may stop the JVM ({@code System.exit}, {@code Runtime.exit}, {@code Runtime.halt}): report a
 * problem with an exception, so that every program using this class keeps running.
 */
public final class Resource implements ProtectedResource {

    /** The value of the last accepted write; {@code null} before any. */
    private String value;

    /** The highest token of an accepted write (the high-water mark); 0 before any. */
    private long highest;

    /**
     * Accepts the write only if {@code token >= highest()}; an accepted write sets {@link #value()}
     * and raises {@link #highest()} to {@code token}, and a rejected write changes nothing.
     */
    @Override
    public boolean write(long token, String value) {
        throw new UnsupportedOperationException(
                "Not implemented yet: Resource.write — accept only if token >= highest(); an accepted write sets value and highest, a rejected one changes nothing");
    }

    /** Returns the value of the last accepted write, or {@code null} before any accepted write. */
    @Override
    public String value() {
        throw new UnsupportedOperationException(
                "Not implemented yet: Resource.value — return the value of the last accepted write (null before any)");
    }

    /** Returns the highest token of an accepted write, or 0 before any accepted write. */
    public long highest() {
        throw new UnsupportedOperationException(
                "Not implemented yet: Resource.highest — return the highest token accepted so far (0 before any)");
    }
}
