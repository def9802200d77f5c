package fencing.sink;

/**
 * The outcome of one request to an {@link IdempotentLedger}, with the ledger's state after the call.
 *
 * <p>Provided code.
 *
 * @param accepted      whether the request was accepted (for a duplicate: whether it was accepted the first time)
 * @param duplicate     whether the request's id had been seen before, so that nothing changed
 * @param highWaterMark the ledger's high-water mark after the call
 * @param total         the ledger's total after the call
 */
public record RequestResult(boolean accepted, boolean duplicate, long highWaterMark, long total) {
}
