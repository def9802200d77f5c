package fencing.lab.history;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import fencing.lab.common.Json;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reads one line of a history file as its {@link HistoryLine}, or says what is wrong in it.
 *
 * <p>The records say what a line holds; this says, in the checker's words rather than Jackson's, why a line is not one
 * of them: not JSON, a missing field, a field of the wrong type (with the value it had), an unknown {@code type}.
 */
final class HistoryLineReader {

    /**
     * The lab's strict mapper, except that a field no kind of line has is passed over: histories are also written by
     * hand, and the reader before the records ignored such fields, so a history it read must still read. Trailing content
     * is refused by {@link #read} itself, to name it in the checker's words.
     *
     * <p>A number is refused where a nemesis action is spelled: Jackson would otherwise take it as the constant's
     * position, and read {@code "action":1} as {@code thaw}. A mode and a verdict, read through factories of their own,
     * refuse it there.
     */
    private static final ObjectReader LINES = Json.MAPPER.readerFor(HistoryLine.class)
            .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .with(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS);

    private HistoryLineReader() {
    }

    /**
     * Reads {@code text}, one line of a history.
     *
     * @throws IllegalArgumentException saying what is wrong in it, e.g. {@code missing field 'token'}
     */
    static HistoryLine read(String text) {
        JsonParser parser;
        try {
            parser = LINES.createParser(text);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON (" + e.getMessage() + ")", e);
        }
        // Closed last, not by try-with-resources: the catch clauses read the value the parser stopped at.
        try {
            JsonToken first = parser.nextToken();
            if (first != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("a line must be a JSON object, got " + (first == null ? "nothing" : got(parser)));
            }
            HistoryLine line = LINES.readValue(parser);
            if (parser.nextToken() != null) {
                throw new IllegalArgumentException("not JSON (trailing content after the object: " + parser.getText() + ")");
            }
            return line;
        } catch (InvalidTypeIdException type) {
            throw new IllegalArgumentException(type.getTypeId() == null ? "missing field 'type'" : "unknown type '" + type.getTypeId() + "'", type);
        } catch (InvalidNullException missing) {
            throw new IllegalArgumentException(missing.getPath().size() == 1 ? "missing field '" + field(missing) + "'"
                    : "field '" + field(missing) + "' must not be null", missing);
        } catch (MismatchedInputException wrongType) {
            throw new IllegalArgumentException(wrongType.getPath().isEmpty() ? "not a history line: " + wrongType.getOriginalMessage()
                    : "field '" + field(wrongType) + "' must be " + expected(wrongType.getTargetType()) + ", got " + got(parser), wrongType);
        } catch (JsonMappingException unreadable) {
            if (unreadable instanceof ValueInstantiationException refused && !refused.getPath().isEmpty() && refused.getType() != null
                    && refused.getType().isEnumType()) {
                // An enum read through a factory of its own, as a mode or a verdict is, refuses an unknown spelling by throwing from it.
                throw new IllegalArgumentException("field '" + field(refused) + "' must be " + expected(refused.getType().getRawClass())
                        + ", got " + got(parser), refused);
            }
            // What is left is a value Jackson could not hold at all, e.g. an integer beyond 64 bits.
            throw new IllegalArgumentException((unreadable.getPath().isEmpty() ? "not a history line" : "field '" + field(unreadable) + "'")
                    + ": " + unreadable.getOriginalMessage(), unreadable);
        } catch (JsonProcessingException malformed) {
            throw new IllegalArgumentException("not JSON (" + malformed.getOriginalMessage() + ")", malformed);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON (" + e.getMessage() + ")", e);
        } finally {
            closeQuietly(parser);
        }
    }

    /** Returns the {@code type} {@code line}'s kind is written with, e.g. {@code writer-end}. */
    static String typeOf(HistoryLine line) {
        for (JsonSubTypes.Type kind : HistoryLine.class.getAnnotation(JsonSubTypes.class).value()) {
            if (kind.value() == line.getClass()) {
                return kind.name();
            }
        }
        throw new IllegalStateException(line.getClass().getName() + " is no kind of history line");
    }

    /** Returns where in the line the problem is, e.g. {@code token}, {@code writerNames[1]} or {@code after.value}. */
    private static String field(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        List<JsonMappingException.Reference> references = e.getPath();
        for (JsonMappingException.Reference reference : references) {
            if (reference.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(reference.getFieldName());
            } else {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String expected(Class<?> type) {
        if (type == long.class || type == int.class || type == Long.class || type == Integer.class) {
            return "an integer";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type != null && type.isEnum()) {
            // Spelled as the history spells them, e.g. cut, not CUT.
            return "one of " + Arrays.stream(type.getEnumConstants()).map(c -> Json.MAPPER.valueToTree(c).asText()).collect(Collectors.joining(", "));
        }
        return type != null && Collection.class.isAssignableFrom(type) ? "an array" : "an object";
    }

    /** Returns the value the parser stopped at as the line has it, or its kind when it is an object or an array. */
    private static String got(JsonParser parser) {
        JsonToken token = parser.currentToken();
        if (token == null || token.isStructStart()) {
            return token == null ? "nothing" : Json.kind(token);
        }
        try {
            return token == JsonToken.VALUE_STRING ? Json.compact(parser.getText()) : parser.getText();
        } catch (IOException unreadable) {
            return Json.kind(token);
        }
    }

    private static void closeQuietly(JsonParser parser) {
        try {
            parser.close();
        } catch (IOException overAString) {
            // Closing a parser over a string releases buffers only; it has nothing to fail on.
        }
    }
}
