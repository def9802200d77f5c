package fencing.lab.sink;

/** A request the sink server refuses: its 4xx status and what was wrong, for the client to read. */
final class BadRequest extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final int status;
    final String allow;

    BadRequest(int status, String message) {
        this(status, message, null);
    }

    BadRequest(int status, String message, String allow) {
        super(message, null, false, false);
        this.status = status;
        this.allow = allow;
    }
}
