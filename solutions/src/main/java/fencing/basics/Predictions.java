package fencing.basics;

/**
 * The lesson's "decide by hand first" questions: replace each placeholder with your answer.
 *
 * <p>The situation: the resource has accepted a write with token 8 from the new owner; then the old
 * owner, holding token 7, wakes up from a pause and writes.
 *
 * <p>No method may stop the JVM ({@code System.exit}, {@code Runtime.exit}, {@code Runtime.halt}): report a
 * problem with an exception, so that every program using this class keeps running.
 */
public final class Predictions {

    private Predictions() {
    }

    /** The highest token the resource remembers after accepting the new owner's write (a number). */
    public static final long HIGHEST_TOKEN_REMEMBERED = 8;

    /** What the fenced resource does with the old owner's write with token 7: {@code "accept"} or {@code "reject"}. */
    public static final String WRITE_WITH_TOKEN_7 = "reject";

    /** What the fenced resource does with a later write with token 9: {@code "accept"} or {@code "reject"}. */
    public static final String WRITE_WITH_TOKEN_9 = "accept";

    /**
     * Whether the lease's expiry timer, on its own, stops the old client from writing: {@code "yes"} or {@code "no"}.
     */
    public static final String EXPIRY_TIMER_ALONE_STOPS_OLD_CLIENT = "no";
}
