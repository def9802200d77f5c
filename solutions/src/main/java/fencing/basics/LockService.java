package fencing.basics;

/**
 * A lock service that grants a lease with a fencing token on every acquisition.
 *
 * <p>Every call to {@link #acquire(String)} is a new grant: the previous holder's lease counts as
 * expired, and the new holder gets a token larger than every token granted before (1, 2, 3, ...),
 * whoever asks and however many threads ask at once.
 *
 * <p>The lock service itself need not be incorrect for a stale write to get through: a holder paused past its
 * lease still believes it holds the lock, which is why the resource checks tokens.
 *
 * <p>No method may stop the JVM ({@code System.exit}, {@code Runtime.exit}, {@code Runtime.halt}): report a
 * problem with an exception, so that every program using this class keeps running.
 */
public final class LockService {

    /** The last token granted; 0 before the first grant. */
    private long last;

    /**
     * Grants the lock to {@code client} and returns its fencing token.
     *
     * <p>Tokens grow with every grant, from anyone: the first grant gets 1, the next 2, and so on,
     * with no token ever given twice, even when many threads acquire at once.
     *
     * @param client the name of the client asking for the lock
     * @return the new holder's fencing token
     */
    public synchronized long acquire(String client) {
        last = last + 1;
        return last;
    }
}
