package fencing.sink;

/** Thrown when a sink's database fails for a reason other than a stale token. */
public final class SinkException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates an exception that says what failed and why. */
    public SinkException(String message, Throwable cause) {
        super(message, cause);
    }
}
