package fencing.support.evidence;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * The body a client of the lab's sink server sent: a write or a ledger request; a request with no body has none.
 *
 * <p>As with {@link SinkReply}, the JSON carries no type name: a write has a {@code value}, a ledger request a {@code requestId}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.DEDUCTION)
@JsonSubTypes({@JsonSubTypes.Type(SinkRequest.Write.class), @JsonSubTypes.Type(SinkRequest.LedgerAdd.class)})
public sealed interface SinkRequest {

    /** Who sent it, e.g. {@code B}. */
    String writer();

    /** The sender's fencing token. */
    long token();

    /** The body of {@code POST /sinks/{mode}/write}. */
    record Write(String writer, long token, String value) implements SinkRequest {
    }

    /** The body of {@code POST /ledgers/{ledger}/add}; a retry carries the same {@code requestId}. */
    record LedgerAdd(String writer, long token, String requestId, long amount) implements SinkRequest {
    }
}
