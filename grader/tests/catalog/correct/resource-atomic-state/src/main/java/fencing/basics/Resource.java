package fencing.basics;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A fenced resource: it remembers the highest token it has accepted and rejects older ones.
 *
 * <p>Only the resource sees every write, so only the resource can tell that a writer is stale: a
 * write is accepted only if its token is at least the highest token seen so far.
 */
public final class Resource implements ProtectedResource {

    /** The value and the mark change together, so they live in one immutable state. */
    private record State(long highest, String value) {
    }

    private final AtomicReference<State> state = new AtomicReference<>(new State(0, null));

    /**
     * Accepts the write only if {@code token >= highest()}; an accepted write sets {@link #value()}
     * and raises {@link #highest()} to {@code token}, and a rejected write changes nothing.
     */
    @Override
    public boolean write(long token, String value) {
        State next = new State(token, value);
        while (true) {
            State current = state.get();
            if (token < current.highest()) {
                return false;
            }
            if (state.compareAndSet(current, next)) {
                return true;
            }
        }
    }

    /** Returns the value of the last accepted write, or {@code null} before any accepted write. */
    @Override
    public String value() {
        return state.get().value();
    }

    /** Returns the highest token of an accepted write, or 0 before any accepted write. */
    public long highest() {
        return state.get().highest();
    }
}
