package fencing.lab.common;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;

/** The lab's one JSON configuration: strict on input, stable on output. */
public final class Json {

    /** Strict: duplicate keys, trailing content and unknown record fields are errors. */
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private Json() {
    }

    /** Returns a new, empty JSON object. */
    public static ObjectNode object() {
        return MAPPER.createObjectNode();
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

    /** Parses {@code text}, which this lab wrote itself, so that a parse error is a bug worth failing on. */
    public static JsonNode parse(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("not JSON: " + text, e);
        }
    }
}
