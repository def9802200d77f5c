package fencing.sink;

import java.util.Objects;

/**
 * A fenced counter that applies each request once: fencing keeps stale owners out, the request ids
 * keep an owner's retries from repeating their effect.
 *
 * <p>Within one ownership generation a high-water mark accepts equal tokens, so fencing does not
 * deduplicate the owner's repeated writes: generation freshness and operation deduplication protect
 * different invariants. The ledger keeps both in SQLite: {@code ledger_state} (total and mark) and
 * {@code ledger_requests} (each request id with its token and verdict).
 */
public final class IdempotentLedger {

    private final ConnectionSource db;

    /** Creates a ledger over {@code db}. */
    public IdempotentLedger(ConnectionSource db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    /**
     * Offers request {@code requestId}, made with {@code token}, to add {@code amount} to the total.
     *
     * <p>In ONE {@code BEGIN IMMEDIATE} transaction: a {@code requestId} already recorded returns its
     * recorded verdict with {@code duplicate = true} and changes nothing; otherwise fence
     * ({@code token >= high_water_mark}), and if accepted add {@code amount} to the total and raise the
     * mark; record the {@code requestId} with its verdict; commit. A request is known by its id alone: a
     * retry with another token or amount is still a duplicate. A duplicate reports the current mark and
     * total.
     *
     * @return the verdict and the ledger's state after the call
     * @throws IllegalArgumentException if {@code requestId} is {@code null} or blank; nothing changes
     * @throws ArithmeticException if the total would overflow; nothing changes
     */
    public RequestResult add(long token, String requestId, long amount) {
        throw new UnsupportedOperationException(
                "Not implemented yet: IdempotentLedger.add — in ONE BEGIN IMMEDIATE transaction: a recorded requestId "
                        + "returns its verdict with duplicate = true; else fence (token >= mark), add amount and raise the "
                        + "mark if accepted, record the requestId with its verdict; commit");
    }

    /** Returns the ledger's total, as stored in {@code ledger_state}. */
    public long total() {
        throw new UnsupportedOperationException(
                "Not implemented yet: IdempotentLedger.total — read total from ledger_state");
    }
}
