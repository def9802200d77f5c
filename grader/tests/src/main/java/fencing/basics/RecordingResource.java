package fencing.basics;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * A protected resource that records every write offered to it and accepts those its rule allows.
 *
 * <p>It lets a graded test see what a scenario did to the resource it was given, independently of
 * the submission's own {@link Resource} and {@link NaiveResource}.
 */
final class RecordingResource implements ProtectedResource {

    private final LongPredicate accepts;
    private final List<String> writes = new ArrayList<>();
    private String value;

    RecordingResource(LongPredicate accepts) {
        this.accepts = accepts;
    }

    @Override
    public synchronized boolean write(long token, String value) {
        writes.add("(" + token + ", \"" + value + "\")");
        if (!accepts.test(token)) {
            return false;
        }
        this.value = value;
        return true;
    }

    @Override
    public synchronized String value() {
        return value;
    }

    /** Returns the writes offered so far, in order, each as {@code (token, "value")}. */
    synchronized List<String> writes() {
        return List.copyOf(writes);
    }
}
