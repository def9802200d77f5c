package fencing.lab.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import fencing.lab.common.Spelled;
import java.util.Optional;

/**
 * What became of a write or a ledger request, as a case expects it and the judge finds it.
 *
 * <p>Spelled as {@link #text()}, e.g. {@code not sent}, the words the sink's answers and the evidence have always used.
 */
public enum Verdict implements Spelled {

    /** The sink took it. */
    ACCEPTED("accepted"),
    /** The sink refused it, and said so. */
    REJECTED("rejected"),
    /** A ledger had applied this request already, and did not apply it again. */
    DUPLICATE("duplicate"),
    /** The request went out and no answer came. */
    LOST("lost"),
    /** The writer never sent it. */
    NOT_SENT("not sent");

    private final String text;

    Verdict(String text) {
        this.text = text;
    }

    /** Returns the verdict as the sink and the evidence spell it, e.g. {@code not sent}. */
    @JsonValue
    @Override
    public String text() {
        return text;
    }

    /** Returns the verdict spelled {@code text}, or nothing where {@code text} says what went wrong instead, e.g. {@code HTTP 500}. */
    public static Optional<Verdict> parse(String text) {
        return Spelled.find(Verdict.class, text);
    }

    /**
     * Returns the verdict spelled {@code text}.
     *
     * @throws IllegalArgumentException naming the verdicts there are, if none is spelled so
     */
    @JsonCreator
    public static Verdict of(String text) {
        return Spelled.exactly(Verdict.class, text, "verdict");
    }

    @Override
    public String toString() {
        return text;
    }
}
