package fencing.lab.sink;

import com.fasterxml.jackson.annotation.JsonIgnore;
import fencing.support.evidence.SinkReply;
import fencing.support.evidence.SinkRequest;

/**
 * One HTTP request to the sink and its response, as the client saw them.
 *
 * @param from             who sent it: {@code A}, {@code B} or {@code runner}
 * @param method           the HTTP method
 * @param path             the path, e.g. {@code /sinks/fenced/write}
 * @param mode             the sink mode the request went to, or {@code null} for a ledger or a control path
 * @param ledger           the ledger the request went to, e.g. {@code idempotent}, or {@code null}
 * @param request          the body sent, or {@code null} for a request without one
 * @param status           the HTTP status, or -1 when no response came
 * @param response         the sink's answer, or {@code null} when none came or it was no answer of the sink's
 * @param error            why no response came, or why its body was no answer of the sink's; {@code null} otherwise
 * @param sentAtMicros     when the request left, in epoch microseconds
 * @param receivedAtMicros when the response arrived (or the call failed), in epoch microseconds
 */
public record Exchange(String from, String method, String path, Mode mode, String ledger, SinkRequest request, int status,
                       SinkReply response, String error, long sentAtMicros, long receivedAtMicros) {

    /** Returns whether this was a write or a ledger request the sink accepted. */
    public boolean accepted() {
        if (status != 200) {
            return false;
        }
        return response instanceof SinkReply.WriteVerdict write ? write.accepted()
                : response instanceof SinkReply.LedgerVerdict ledger && ledger.accepted();
    }

    /** Returns the sink's verdict ({@code accepted}, {@code rejected}, for a ledger {@code duplicate}), or what went wrong instead. */
    public String verdict() {
        if (status == 200 && response instanceof SinkReply.WriteVerdict write) {
            return write.verdict();
        }
        if (status == 200 && response instanceof SinkReply.LedgerVerdict ledger) {
            return ledger.verdict();
        }
        if (status == -1) {
            return "no response (" + error + ")";
        }
        String why = response instanceof SinkReply.Failure failure ? failure.error() : error;
        return "HTTP " + status + (why == null ? "" : ": " + why);
    }

    /**
     * Returns the sink's answer as a {@code kind}.
     *
     * @throws IllegalStateException naming the call and what came instead, if no answer of that kind came
     */
    public <T extends SinkReply> T reply(Class<T> kind) {
        if (kind.isInstance(response)) {
            return kind.cast(response);
        }
        throw new IllegalStateException(method + " " + path + " got " + verdict() + ", not " + kind.getSimpleName());
    }

    /** Returns whether this was a write. */
    @JsonIgnore
    public boolean isWrite() {
        return mode != null && method.equals("POST") && path.endsWith("/write");
    }

    /** Returns whether this was a request to a ledger. */
    @JsonIgnore
    public boolean isLedgerAdd() {
        return ledger != null && method.equals("POST") && path.endsWith("/add");
    }

    /** Returns whether the request went out and no response came: the client cannot tell whether it was applied. */
    @JsonIgnore
    public boolean isLost() {
        return status == -1;
    }

    /** Returns when the sink decided, from its response, or when the response arrived if it did not say. */
    public long decidedAtMicros() {
        if (response instanceof SinkReply.WriteVerdict write) {
            return write.decidedAtMicros();
        }
        return response instanceof SinkReply.LedgerVerdict ledger ? ledger.decidedAtMicros() : receivedAtMicros;
    }
}
