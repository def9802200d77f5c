package fencing.lab.history;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonProcessingException;
import fencing.lab.common.Json;
import fencing.lab.common.Spelled;
import fencing.lab.sink.Mode;
import fencing.support.evidence.SinkReply;
import java.io.UncheckedIOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;

/**
 * One line of a chaos history ({@code history.jsonl}, format {@value History#FORMAT}), as the chaos run writes it.
 *
 * <p>The writers and the runner build these and nothing else, and {@link History} reads a file back into them, so the
 * format is said here once. The JSON names each kind in {@code type}, first; the fields are those of {@code labs/README.md}.
 * A field marked {@link Required} is one a history cannot be judged without: reading refuses a line that lacks it. The
 * others a history written by hand may leave out, and they read as {@code null}, {@code 0} or {@code false}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = HistoryLine.Header.class, name = "history"),
    @JsonSubTypes.Type(value = HistoryLine.Acquired.class, name = "acquired"),
    @JsonSubTypes.Type(value = HistoryLine.Write.class, name = "write"),
    @JsonSubTypes.Type(value = HistoryLine.Released.class, name = "released"),
    @JsonSubTypes.Type(value = HistoryLine.AcquireFailed.class, name = "acquire-failed"),
    @JsonSubTypes.Type(value = HistoryLine.Fault.class, name = "nemesis"),
    @JsonSubTypes.Type(value = HistoryLine.WriterEnd.class, name = "writer-end"),
    @JsonSubTypes.Type(value = HistoryLine.End.class, name = "end")})
public sealed interface HistoryLine {

    /**
     * Returns this line as JSON on one line, {@code type} first.
     *
     * <p>Written for the interface, not the record's own class, so that the type name is always there.
     */
    default String json() {
        try {
            return Json.MAPPER.writerFor(HistoryLine.class).writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("could not write the history line " + this, e);
        }
    }

    /**
     * Reads one line the chaos run wrote itself.
     *
     * @throws UncheckedIOException if it is not one: a bug of the run, not something to judge (that is {@link History}'s)
     */
    static HistoryLine parse(String text) {
        try {
            return Json.MAPPER.readValue(text, HistoryLine.class);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("not a history line: " + text, e);
        }
    }

    /**
     * Marks a field a line must have: absent or {@code null}, reading the line fails, naming the field.
     *
     * <p>Jackson's {@code required} alone would let an explicit {@code null} through, and a primitive field read as 0.
     */
    @Target({ElementType.PARAMETER, ElementType.FIELD, ElementType.METHOD})
    @Retention(RetentionPolicy.RUNTIME)
    @JacksonAnnotationsInside
    @JsonSetter(nulls = Nulls.FAIL, contentNulls = Nulls.FAIL)
    @interface Required {
    }

    /** A line with a place in the history's time order: every line between the header and the closing lines. */
    sealed interface Timed extends HistoryLine {

        /** Returns the time that orders this line among the others: a write's {@code sentAtMicros}, any other line's {@code atMicros}. */
        long timeMicros();
    }

    /**
     * The first line, exactly once ({@code history}).
     *
     * @param format   the format, {@value History#FORMAT}
     * @param caseName the case that recorded it, {@code chaos}; {@code case} in the JSON
     * @param seed     the nemesis's seed, to replay the faults with
     */
    record Header(@Required int format, @JsonProperty("case") String caseName, @Required long seed, long durationSeconds, long ttlMillis,
                  int valuesPerHold, @Required List<String> writerNames, @Required List<Mode> modes) implements HistoryLine {
    }

    /**
     * A writer got the lock ({@code acquired}).
     *
     * @param token the lock key's create revision
     * @param lease the lease's id in hex, e.g. {@code 0x694d...}
     */
    record Acquired(@Required String writer, @Required long token, String lease, @Required long atMicros) implements Timed {

        @Override
        public long timeMicros() {
            return atMicros;
        }
    }

    /**
     * One request to one mode, recorded by its writer when the answer came ({@code write}).
     *
     * @param mode    the mode written to, one of the header's; a line with any other mode is refused
     * @param verdict the sink's verdict, or {@link Verdict#ERROR} when it gave none
     * @param after   the mode's state after the call, as the sink's verdict gave it; absent when it gave none
     * @param error   what came instead of a verdict; absent when {@code after} is there
     */
    record Write(@Required String writer, @Required long token, @Required String lease, @Required Mode mode, @Required String value,
                 @Required long sentAtMicros, @Required long receivedAtMicros, @Required Verdict verdict,
                 @JsonInclude(JsonInclude.Include.NON_NULL) SinkReply.ModeAfter after,
                 @JsonInclude(JsonInclude.Include.NON_NULL) String error) implements Timed {

        @Override
        public long timeMicros() {
            return sentAtMicros;
        }

        /** What a write came to, spelled in the history as {@link #text()}; a line with any other verdict is refused. */
        public enum Verdict implements Spelled {
            /** The sink took the write. */
            ACCEPTED("accepted"),
            /** The sink refused the write and kept what it had. */
            REJECTED("rejected"),
            /** No verdict came, e.g. the call timed out: the write may or may not have been applied. */
            ERROR("error");

            private final String text;

            Verdict(String text) {
                this.text = text;
            }

            /** Returns the verdict as the history spells it, e.g. {@code accepted}. */
            @JsonValue
            @Override
            public String text() {
                return text;
            }

            /**
             * Returns the verdict spelled exactly {@code text}: a history is read as written.
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
    }

    /**
     * A writer released the lock ({@code released}).
     *
     * @param deleted whether its key was still there to delete; absent when the release did not answer
     * @param error   why the release did not answer, e.g. a freeze mid-call; absent when it did
     */
    record Released(String writer, long token, String lease, @JsonInclude(JsonInclude.Include.NON_NULL) Boolean deleted,
                    @JsonInclude(JsonInclude.Include.NON_NULL) String error, @Required long atMicros) implements Timed {

        @Override
        public long timeMicros() {
            return atMicros;
        }
    }

    /** A {@code tryAcquire} that did not answer in time, e.g. frozen or cut off mid-call ({@code acquire-failed}). */
    record AcquireFailed(String writer, String error, @Required long atMicros) implements Timed {

        @Override
        public long timeMicros() {
            return atMicros;
        }
    }

    /**
     * What the nemesis did to a writer ({@code nemesis}).
     *
     * @param action {@code freeze} or {@code thaw}, {@code cut} or {@code heal}
     */
    record Fault(@Required Action action, @Required String writer, @Required long atMicros) implements Timed {

        @Override
        public long timeMicros() {
            return atMicros;
        }

        /** A fault's beginning or end, spelled in the history as {@link #text()}. */
        public enum Action implements Spelled {
            /** The writer was stopped with SIGSTOP. */
            FREEZE("freeze"),
            /** The frozen writer was resumed with SIGCONT. */
            THAW("thaw"),
            /** The writer's paths to etcd were cut, its path to the sink left open. */
            CUT("cut"),
            /** The writer's paths to etcd were healed: what they held crossed. */
            HEAL("heal");

            private final String text;

            Action(String text) {
                this.text = text;
            }

            /** Returns the action as the history spells it, e.g. {@code cut}; a line with any other action is refused. */
            @JsonValue
            @Override
            public String text() {
                return text;
            }

            /**
             * Returns the action spelled exactly {@code text}: a history is read as written.
             *
             * @throws IllegalArgumentException naming the actions there are, if none is spelled so
             */
            @JsonCreator
            public static Action of(String text) {
                return Spelled.exactly(Action.class, text, "action");
            }

            /** Returns whether this action begins a fault ({@code freeze}, {@code cut}) rather than ending one. */
            public boolean begins() {
                return this == FREEZE || this == CUT;
            }

            /** Returns the action that ends the fault this one begins, or this one itself when it ends one. */
            public Action end() {
                return this == FREEZE ? THAW : this == CUT ? HEAL : this;
            }
        }
    }

    /**
     * A writer's last line ({@code writer-end}).
     *
     * @param writes how many {@code write} lines it recorded
     * @param rounds how many times it held the lock
     */
    record WriterEnd(@Required String writer, @Required int writes, int rounds) implements HistoryLine {
    }

    /**
     * The history's last line ({@code end}).
     *
     * @param writes how many {@code write} lines the history holds
     */
    record End(@Required long writes) implements HistoryLine {
    }
}
