package fencing.lab.history;

import fencing.lab.sink.Mode;
import java.util.Objects;
import java.util.Optional;

/**
 * The sequential model a mode's history is checked against: a register with a high-water mark.
 *
 * <p>A write with token {@code t} and value {@code v} is accepted iff {@code t >= mark}, and then sets
 * {@code value := v, mark := t}; a rejected write changes nothing. The plain mode is checked against the same
 * register: it is not one, and its history shows it.
 */
public enum SinkModel {

    /** {@code fenced} and {@code plain}: the outcome of every write follows from the mark. */
    HIGH_WATER_MARK("a register with a high-water mark"),

    /**
     * {@code current-owner}: the same register, behind an owner check the history does not record.
     *
     * <p>The sink also rejects a token at or above the mark whose holder is no longer the lock's current one (an
     * expired holder writing before its successor does): such a rejection is explained by the lock service, not by
     * the register, so any rejection leaves the state as it was. An acceptance must still respect the mark.
     */
    HIGH_WATER_MARK_AND_OWNER_CHECK("a register with a high-water mark, behind an owner check (so any rejection is explained)");

    /**
     * The register's state.
     *
     * @param value the value of the last accepted write, {@code null} before any
     * @param mark  the high-water mark: the token of the last accepted write, 0 before any
     */
    public record State(String value, long mark) {

        /** The empty sink, as its table starts: no value, mark 0. */
        public static final State EMPTY = new State(null, 0);
    }

    /**
     * The rule that decided one write in one mode, as the lesson names it.
     *
     * <p>Spelled as {@link #text()} where a page shows it (the activity, {@code activity.html}), so that a page and this
     * model can be compared rule by rule.
     */
    public enum Rule {
        /** Plain: the sink stores whatever it is sent, and keeps no mark. */
        STORES_ANYTHING("stores-anything"),
        /** Fenced or current-owner: the token is below the high-water mark, so the resource has seen a newer owner. */
        BELOW_MARK("below-mark"),
        /** Fenced: the token is at or above the high-water mark. */
        NOT_BELOW_MARK("not-below-mark"),
        /** Current-owner: the token is not below the mark, but the lock service says it is not the current holder's. */
        NOT_CURRENT_OWNER("not-current-owner"),
        /** Current-owner: the token is the current holder's, and not below the mark. */
        CURRENT_OWNER("current-owner");

        private final String text;

        Rule(String text) {
            this.text = text;
        }

        /** Returns the rule as a page spells it, e.g. {@code below-mark}. */
        public String text() {
            return text;
        }
    }

    /**
     * How a sink of one mode decides one write.
     *
     * @param accepted whether the write was stored
     * @param after    the sink's state after the write
     * @param rule     the rule that decided it
     */
    public record Decision(boolean accepted, State after, Rule rule) {
    }

    private final String description;

    SinkModel(String description) {
        this.description = description;
    }

    /** Returns the model a mode's history is checked against, given what the lesson expects of the mode. */
    public static SinkModel of(HistoryChecker.Contract contract) {
        return contract == HistoryChecker.Contract.CURRENT_OWNER ? HIGH_WATER_MARK_AND_OWNER_CHECK : HIGH_WATER_MARK;
    }

    /** Returns what the model is, in words. */
    public String description() {
        return description;
    }

    /**
     * Decides one write as a sink of {@code mode} does, from all it can know: its state, the write, and (for the
     * current-owner mode only) whether the lock service says {@code token} is the current holder's.
     *
     * <p>Plain stores anything and keeps its mark at 0 ({@code PlainSink}); fenced accepts iff {@code token >= mark}
     * ({@code FencedSink}); current-owner accepts iff {@code token >= mark} and the token is the current holder's,
     * the mark asked first ({@code OwnerCheckingSink}). A rejection leaves the state as it was.
     */
    public static Decision decide(Mode mode, State state, long token, String value, boolean currentOwner) {
        Objects.requireNonNull(state, "state");
        if (mode == Mode.PLAIN) {
            return new Decision(true, new State(value, state.mark()), Rule.STORES_ANYTHING);
        }
        State applied = new State(value, token);
        if (!admits(state, token)) {
            return new Decision(false, state, Rule.BELOW_MARK);
        }
        if (mode == Mode.FENCED) {
            return new Decision(true, applied, Rule.NOT_BELOW_MARK);
        }
        return currentOwner ? new Decision(true, applied, Rule.CURRENT_OWNER) : new Decision(false, state, Rule.NOT_CURRENT_OWNER);
    }

    private static boolean admits(State state, long token) {
        return token >= state.mark();
    }

    /**
     * Applies {@code operation} to {@code state}, or returns nothing if the register could not have answered as it did.
     *
     * <p>An operation of unknown outcome is applied as the sink would have decided it; that it may never have taken
     * effect is the search's part, which can put it after every other operation.
     */
    public Optional<State> step(State state, Operation operation) {
        boolean fits = admits(state, operation.token());
        State applied = new State(operation.value(), operation.token());
        return switch (operation.outcome()) {
            case ACCEPTED -> fits ? Optional.of(applied) : Optional.empty();
            case REJECTED -> !fits || this == HIGH_WATER_MARK_AND_OWNER_CHECK ? Optional.of(state) : Optional.empty();
            case UNKNOWN -> Optional.of(fits ? applied : state);
        };
    }
}
