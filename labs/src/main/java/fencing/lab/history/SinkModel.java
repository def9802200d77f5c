package fencing.lab.history;

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
     * Applies {@code operation} to {@code state}, or returns nothing if the register could not have answered as it did.
     *
     * <p>An operation of unknown outcome is applied as the sink would have decided it; that it may never have taken
     * effect is the search's part, which can put it after every other operation.
     */
    public Optional<State> step(State state, Operation operation) {
        boolean fits = operation.token() >= state.mark();
        State applied = new State(operation.value(), operation.token());
        return switch (operation.outcome()) {
            case ACCEPTED -> fits ? Optional.of(applied) : Optional.empty();
            case REJECTED -> !fits || this == HIGH_WATER_MARK_AND_OWNER_CHECK ? Optional.of(state) : Optional.empty();
            case UNKNOWN -> Optional.of(fits ? applied : state);
        };
    }
}
