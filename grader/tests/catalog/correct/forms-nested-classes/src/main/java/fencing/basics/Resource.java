package fencing.basics;

/** A fenced resource whose value and high-water mark are one nested record, replaced whole on an accepted write. */
public final class Resource implements ProtectedResource {

    /** The last accepted write and the highest token seen. */
    private record State(String value, long highest) {
    }

    private State state = new State(null, 0);

    @Override
    public synchronized boolean write(long token, String value) {
        class Judge {
            boolean accepts() {
                return token >= state.highest();
            }
        }
        if (!new Judge().accepts()) {
            return false;
        }
        state = new State(value, token);
        return true;
    }

    @Override
    public synchronized String value() {
        return state.value();
    }

    /** Returns the highest token of an accepted write, or 0 before any accepted write. */
    public synchronized long highest() {
        return state.highest();
    }
}
