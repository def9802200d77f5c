package fencing.support.evidence;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import java.util.Map;

/**
 * One answer of the lab's sink server: the server writes these, its client reads them back, and the evidence keeps them.
 *
 * <p>The JSON carries no type name; each kind is known by its field names, which no two kinds share all of
 * (a mode's state has a top-level {@code highWaterMark}, a write's verdict a {@code writer}, an error an {@code error}, ...).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.DEDUCTION)
@JsonSubTypes({
    @JsonSubTypes.Type(SinkReply.ModeState.class),
    @JsonSubTypes.Type(SinkReply.WriteVerdict.class),
    @JsonSubTypes.Type(SinkReply.LedgerState.class),
    @JsonSubTypes.Type(SinkReply.LedgerVerdict.class),
    @JsonSubTypes.Type(SinkReply.Failure.class),
    @JsonSubTypes.Type(SinkReply.HoldStatus.class),
    @JsonSubTypes.Type(SinkReply.Losing.class),
    @JsonSubTypes.Type(SinkReply.Health.class)})
public sealed interface SinkReply {

    /**
     * A mode's state, the answer to {@code GET /sinks/{mode}}.
     *
     * @param sink  the class serving the mode, e.g. {@code FencedSink}
     * @param value the value stored, or {@code null} before any write
     */
    record ModeState(String mode, String sink, String value, long highWaterMark) implements SinkReply {
    }

    /**
     * A mode's verdict on a write, the answer to {@code POST /sinks/{mode}/write}.
     *
     * @param value   the value the write offered
     * @param verdict {@code accepted} or {@code rejected}
     * @param after   the mode's state after the write
     */
    record WriteVerdict(String mode, String sink, String writer, long token, String value, String verdict, boolean accepted,
                        ModeAfter after, long decidedAtMicros, String decidedAt) implements SinkReply {
    }

    /** A mode's value ({@code null} before any accepted write) and high-water mark after a write. */
    record ModeAfter(String value, long highWaterMark) {
    }

    /**
     * A ledger's state, the answer to {@code GET /ledgers/{ledger}}.
     *
     * @param implementation the class behind the ledger, e.g. {@code IdempotentLedger}; {@code class} in the JSON
     */
    record LedgerState(String ledger, @JsonProperty("class") String implementation, long total, long highWaterMark) implements SinkReply {
    }

    /**
     * A ledger's verdict on a request, the answer to {@code POST /ledgers/{ledger}/add}.
     *
     * @param implementation the class behind the ledger; {@code class} in the JSON
     * @param verdict        {@code accepted}, {@code rejected} or {@code duplicate}
     * @param after          the ledger's total and mark after the request
     */
    record LedgerVerdict(String ledger, @JsonProperty("class") String implementation, String writer, long token, String requestId,
                         long amount, String verdict, boolean accepted, boolean duplicate, LedgerAfter after, long decidedAtMicros,
                         String decidedAt) implements SinkReply {
    }

    /** A ledger's total and high-water mark after a request. */
    record LedgerAfter(long total, long highWaterMark) {
    }

    /**
     * What was wrong with a request, or with the sink: the answer with every status other than 200.
     *
     * @param status the HTTP status, repeated in the body
     * @param error  what was wrong, in the sink's words
     */
    record Failure(int status, String error) implements SinkReply {
    }

    /**
     * The broken sink's hold, the answer to its {@code /control/...} paths.
     *
     * @param heldToken the token of the write held, or -1
     * @param markSeen  the mark the held write's check read, or -1
     * @param ended     how the last hold ended ({@code released}, ...), or an empty string
     */
    record HoldStatus(boolean armed, boolean holding, long heldToken, long markSeen, long heldSinceMicros, String ended) implements SinkReply {
    }

    /**
     * The answer to {@code POST /control/lose-first-response/{requestId}}.
     *
     * @param losing what will be lost, in words
     */
    record Losing(String requestId, String losing) implements SinkReply {
    }

    /**
     * The server's modes and process, the answer to {@code GET /health}.
     *
     * @param status           {@code ok}
     * @param modes            the class serving each mode, by mode
     * @param ledgers          the class behind each ledger, by ledger
     * @param currentOwner     the etcd the current-owner mode asks, or {@code null} (and absent) without that mode
     * @param notImplementedYet the sinks still stubs, each with its message
     */
    record Health(String status, long pid, String dir, Map<String, String> modes, Map<String, String> ledgers,
                  @JsonInclude(JsonInclude.Include.NON_NULL) CurrentOwner currentOwner, List<String> notImplementedYet) implements SinkReply {
    }

    /** The etcd and lock key the current-owner mode asks, and the owner check that asks. */
    record CurrentOwner(String endpoints, String lockKey, String ownerCheck) {
    }
}
