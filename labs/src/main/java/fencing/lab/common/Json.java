package fencing.lab.common;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.io.UncheckedIOException;

/** The lab's one JSON configuration: strict on input, stable on output. */
public final class Json {

    /**
     * Strict: duplicate keys, trailing content and unknown record fields are errors, and nothing is converted into a
     * number or a string: {@code "7"} is no integer, {@code 7.5} no {@code long} and {@code 7} no string.
     */
    public static final ObjectMapper MAPPER = strict();

    private Json() {
    }

    private static ObjectMapper strict() {
        ObjectMapper mapper = JsonMapper.builder()
                .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .build();
        // ALLOW_COERCION_OF_SCALARS leaves strings out: a number would still be read into a String without these.
        for (CoercionInputShape shape : CoercionInputShape.values()) {
            mapper.coercionConfigFor(LogicalType.Integer).setCoercion(shape, CoercionAction.Fail);
            mapper.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
        }
        return mapper;
    }

    /** Writes {@code value} on one line. */
    public static String compact(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("could not write JSON for " + value.getClass().getSimpleName(), e);
        }
    }

    /** Writes {@code value} indented, for files people read. */
    public static String pretty(Object value) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("could not write JSON for " + value.getClass().getSimpleName(), e);
        }
    }

    /** Names the kind of value {@code token} starts, for a message about bad input: {@code an object}, {@code a string}, ... */
    public static String kind(JsonToken token) {
        switch (token) {
            case START_OBJECT:
                return "an object";
            case START_ARRAY:
                return "an array";
            case VALUE_STRING:
                return "a string";
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return "a number";
            case VALUE_TRUE:
            case VALUE_FALSE:
                return "a boolean";
            case VALUE_NULL:
                return "a null";
            default:
                return token.asString() == null ? token.name() : token.asString();
        }
    }
}
