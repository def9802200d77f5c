package fencing.basics;

/**
 * An unfenced resource: it accepts every write, whatever its token.
 *
 * <p>This is what a resource looks like when it trusts the lock alone: a paused holder that wakes
 * up after its lease expired still gets its late write in.
 *
 * <p>No method may stop the JVM ({@code System.exit}, {@code Runtime.exit}, {@code Runtime.halt}): report a
 * problem with an exception, so that every program using this class keeps running.
 */
public final class NaiveResource implements ProtectedResource {

    /** The value of the last write; {@code null} before any. */
    private String value;

    /** Accepts every write: stores {@code value} and returns {@code true}, whatever the token. */
    @Override
    public synchronized boolean write(long token, String value) {
        this.value = value;
        return true;
    }

    /** Returns the value of the last write, or {@code null} before any write. */
    @Override
    public synchronized String value() {
        return value;
    }
}
