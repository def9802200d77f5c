package fencing.lab.sink;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;

/**
 * The body of {@code POST /sinks/{mode}/write}: exactly a writer, a token and a value.
 *
 * <p>The schema is the JSON mapper's to enforce ({@link WriteRequests}): no other field, no {@code null},
 * a token that is a JSON integer and a writer and value that are JSON strings. What JSON cannot say is
 * checked here. A field that is missing arrives as {@code null}.
 *
 * @param writer who writes, e.g. {@code A}
 * @param token  the writer's fencing token, an etcd revision
 * @param value  the value to store
 */
public record WriteRequest(
        @JsonProperty("writer") @JsonSetter(nulls = Nulls.FAIL) String writer,
        @JsonProperty("token") @JsonSetter(nulls = Nulls.FAIL) Long token,
        @JsonProperty("value") @JsonSetter(nulls = Nulls.FAIL) String value) {

    static final int MAX_WRITER_CHARS = 64;
    static final int MAX_VALUE_CHARS = 1024;

    /** Checks what JSON's types cannot. */
    public WriteRequest {
        if (writer == null) {
            throw new IllegalArgumentException("writer is missing: a write has writer, token and value");
        }
        if (token == null) {
            throw new IllegalArgumentException("token is missing: a write carries its writer's fencing token, e.g. \"token\": 7");
        }
        if (value == null) {
            throw new IllegalArgumentException("value is missing: a write has writer, token and value");
        }
        if (writer.isBlank()) {
            throw new IllegalArgumentException("writer must name the writer, got an empty string");
        }
        if (token < 0) {
            throw new IllegalArgumentException("token must not be negative, got " + token + ": tokens are etcd revisions");
        }
        tooLong("writer", writer, MAX_WRITER_CHARS);
        tooLong("value", value, MAX_VALUE_CHARS);
    }

    private static void tooLong(String field, String text, int maxChars) {
        if (text.length() > maxChars) {
            throw new IllegalArgumentException(field + " is too long: " + text.length() + " characters, at most " + maxChars);
        }
    }
}
