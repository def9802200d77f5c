package fencing.lab.history;

/**
 * One write to one mode as the linearizability check sees it: when it was invoked, when its answer came, and what it answered.
 *
 * <p>An operation without an answer is {@link Outcome#UNKNOWN} and answered at {@link Long#MAX_VALUE}: it may have
 * taken effect at any time after it was sent, or never (porcupine's convention for a call that timed out).
 *
 * @param line             the write's line in the history, which names it
 * @param invokedAtMicros  when its writer sent it ({@code sentAtMicros})
 * @param answeredAtMicros when the answer came ({@code receivedAtMicros}), or {@link Long#MAX_VALUE} without one
 */
public record Operation(int line, String writer, long token, String value, long invokedAtMicros, long answeredAtMicros,
                        Outcome outcome) {

    /** What the sink answered to a write. */
    public enum Outcome {
        ACCEPTED, REJECTED,
        /** No verdict came ({@code error}): the write may or may not have been applied. */
        UNKNOWN;

        /** Returns the outcome of a write the history gives {@code verdict}. */
        static Outcome of(HistoryLine.Write.Verdict verdict) {
            return switch (verdict) {
                case ACCEPTED -> ACCEPTED;
                case REJECTED -> REJECTED;
                case ERROR -> UNKNOWN;
            };
        }
    }

    /** Returns the operation of one recorded write. */
    public static Operation of(History.Write write) {
        Outcome outcome = Outcome.of(write.verdict());
        // The error came back, but the request may still be on its way to the sink: its effect has no deadline.
        long answered = outcome == Outcome.UNKNOWN ? Long.MAX_VALUE : write.receivedAtMicros();
        return new Operation(write.line(), write.writer(), write.token(), write.value(), write.sentAtMicros(), answered, outcome);
    }

    /** Returns this operation free to take effect at any time after it was sent, or never, with the outcome it had if it does. */
    Operation optional() {
        return new Operation(line, writer, token, value, invokedAtMicros, Long.MAX_VALUE, outcome);
    }
}
