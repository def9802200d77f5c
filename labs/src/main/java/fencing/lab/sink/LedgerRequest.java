package fencing.lab.sink;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;

/**
 * The body of {@code POST /ledgers/{ledger}/add}: exactly a writer, a token, a request id and an amount.
 *
 * <p>As for {@link WriteRequest}, the JSON mapper enforces the types ({@link WriteRequests}) and this checks the rest.
 *
 * @param writer    who sends it, e.g. {@code B}
 * @param token     the writer's fencing token, an etcd revision
 * @param requestId the request's id: a retry carries the same id
 * @param amount    what to add to the total, at least 1
 */
public record LedgerRequest(
        @JsonProperty("writer") @JsonSetter(nulls = Nulls.FAIL) String writer,
        @JsonProperty("token") @JsonSetter(nulls = Nulls.FAIL) Long token,
        @JsonProperty("requestId") @JsonSetter(nulls = Nulls.FAIL) String requestId,
        @JsonProperty("amount") @JsonSetter(nulls = Nulls.FAIL) Long amount) {

    /** The largest amount one request may add, so that no run of the lab comes near a 64-bit total. */
    static final long MAX_AMOUNT = 1_000_000_000L;
    static final int MAX_REQUEST_ID_CHARS = 64;

    /** Checks what JSON's types cannot. */
    public LedgerRequest {
        for (String[] field : new String[][] {{"writer", writer}, {"requestId", requestId}}) {
            if (field[1] == null) {
                throw new IllegalArgumentException(field[0] + " is missing: a ledger request has writer, token, requestId and amount");
            }
        }
        if (token == null) {
            throw new IllegalArgumentException("token is missing: a ledger request carries its writer's fencing token, e.g. \"token\": 7");
        }
        if (amount == null) {
            throw new IllegalArgumentException("amount is missing: a ledger request says how much to add, e.g. \"amount\": 5");
        }
        if (writer.isBlank()) {
            throw new IllegalArgumentException("writer must name the writer, got an empty string");
        }
        if (requestId.isBlank()) {
            throw new IllegalArgumentException("requestId must name the request, got an empty string: a retry is known by its id");
        }
        if (token < 0) {
            throw new IllegalArgumentException("token must not be negative, got " + token + ": tokens are etcd revisions");
        }
        if (amount < 1 || amount > MAX_AMOUNT) {
            throw new IllegalArgumentException("amount must be between 1 and " + MAX_AMOUNT + ", got " + amount);
        }
        if (writer.length() > WriteRequest.MAX_WRITER_CHARS) {
            throw new IllegalArgumentException("writer is too long: " + writer.length() + " characters, at most " + WriteRequest.MAX_WRITER_CHARS);
        }
        if (requestId.length() > MAX_REQUEST_ID_CHARS) {
            throw new IllegalArgumentException("requestId is too long: " + requestId.length() + " characters, at most " + MAX_REQUEST_ID_CHARS);
        }
    }
}
