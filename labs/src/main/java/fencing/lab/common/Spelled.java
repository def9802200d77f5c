package fencing.lab.common;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A value of an enum that files and the command line spell as {@link #text()}, e.g. {@code current-owner}, and that is read
 * back only as spelled.
 *
 * <p>Jackson's own reading of an enum would also take {@code " accepted"}, trimmed, or a number; what the lab wrote or was
 * given is read as written, and anything else is refused with the spellings there are.
 */
public interface Spelled {

    /** Returns the value as files and the command line spell it. */
    String text();

    /** Returns the value of {@code type} spelled exactly {@code text}, or nothing if none is (or {@code text} is {@code null}). */
    static <E extends Enum<E> & Spelled> Optional<E> find(Class<E> type, String text) {
        return Arrays.stream(type.getEnumConstants()).filter(value -> value.text().equals(text)).findFirst();
    }

    /**
     * Returns the value of {@code type} spelled exactly {@code text}.
     *
     * @param noun what a value is called in the message, e.g. {@code verdict}
     * @throws IllegalArgumentException naming the spellings there are, e.g. {@code no such mode 'Plain': plain, fenced, current-owner}
     */
    static <E extends Enum<E> & Spelled> E exactly(Class<E> type, String text, String noun) {
        return find(type, text).orElseThrow(() -> new IllegalArgumentException("no such " + noun + " '" + text + "': "
                + Arrays.stream(type.getEnumConstants()).map(Spelled::text).collect(Collectors.joining(", "))));
    }
}
