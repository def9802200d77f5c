package fencing.lab.sink;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import fencing.lab.common.Spelled;

/**
 * A mode of the sink server: one sink behind {@code /sinks/{mode}}, each over its own SQLite file.
 *
 * <p>Spelled in JSON, in paths and in the evidence as {@link #text()}, e.g. {@code current-owner}, as it was when modes were
 * plain strings, so that files written then still read.
 */
public enum Mode implements Spelled {

    /** {@code PlainSink}: stores anything it is sent. */
    PLAIN("plain"),
    /** The fenced sink: a high-water mark of tokens. */
    FENCED("fenced"),
    /** {@code OwnerCheckingSink}: also asks etcd whether the token is the lock holder's now. */
    CURRENT_OWNER("current-owner");

    private final String text;

    Mode(String text) {
        this.text = text;
    }

    /** Returns the mode as the command line, the paths and the files spell it, e.g. {@code current-owner}. */
    @JsonValue
    @Override
    public String text() {
        return text;
    }

    /**
     * Returns the mode spelled exactly {@code text}.
     *
     * @throws IllegalArgumentException naming the modes there are, if none is spelled so
     */
    @JsonCreator
    public static Mode of(String text) {
        return Spelled.exactly(Mode.class, text, "mode");
    }

    @Override
    public String toString() {
        return text;
    }
}
