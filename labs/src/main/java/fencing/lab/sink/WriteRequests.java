package fencing.lab.sink;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import fencing.lab.common.Json;
import java.io.IOException;

/**
 * Reads a {@link WriteRequest} or a {@link LedgerRequest} with the lab's strict {@link Json#MAPPER}, which enforces its schema,
 * and says in the sink's words what was wrong.
 */
final class WriteRequests {

    /** One kind of body: its type, its shape and its fields, for the messages. */
    private record Schema<T>(ObjectReader reader, String shape, String fields, String what) {
    }

    private static final Schema<WriteRequest> WRITE = new Schema<>(Json.MAPPER.readerFor(WriteRequest.class),
            "{\"writer\": ..., \"token\": ..., \"value\": ...}", "writer, token and value", "a write");
    private static final Schema<LedgerRequest> LEDGER = new Schema<>(Json.MAPPER.readerFor(LedgerRequest.class),
            "{\"writer\": ..., \"token\": ..., \"requestId\": ..., \"amount\": ...}", "writer, token, requestId and amount", "a ledger request");

    private WriteRequests() {
    }

    /** Parses a write from {@code body}, which is not empty. */
    static WriteRequest parse(byte[] body) {
        return parse(body, WRITE);
    }

    /** Parses a ledger request from {@code body}, which is not empty. */
    static LedgerRequest parseLedger(byte[] body) {
        return parse(body, LEDGER);
    }

    private static <T> T parse(byte[] body, Schema<T> schema) {
        ObjectReader reader = schema.reader();
        String shape = schema.shape();
        JsonParser parser;
        try {
            parser = reader.createParser(body);
        } catch (IOException e) {
            throw new BadRequest(400, "the body could not be read: " + e.getMessage());
        }
        // Closed last, not by try-with-resources: the catch clauses read where the parser stopped.
        try {
            JsonToken first = parser.nextToken();
            if (first != JsonToken.START_OBJECT) {
                throw new BadRequest(400, "the body must be a JSON object " + shape + ", got " + (first == null ? "nothing" : Json.kind(first)));
            }
            T request = reader.readValue(parser);
            JsonToken after = parser.nextToken();
            if (after != null) {
                throw new BadRequest(400, "malformed JSON: trailing content after the object: " + parser.getText());
            }
            return request;
        } catch (UnrecognizedPropertyException unknown) {
            throw new BadRequest(400, "unknown field '" + unknown.getPropertyName() + "': " + schema.what() + " has exactly " + schema.fields());
        } catch (ValueInstantiationException invalid) {
            throw new BadRequest(400, invalid.getCause().getMessage());
        } catch (InvalidNullException missingOrNull) {
            String field = String.valueOf(missingOrNull.getPropertyName().getSimpleName());
            if (parser.currentToken() != JsonToken.VALUE_NULL) {
                throw new BadRequest(400, field + " is missing: " + schema.what() + " has " + schema.fields());
            }
            throw new BadRequest(400, field + " must be " + expected(field) + ", got a null");
        } catch (MismatchedInputException wrongType) {
            if (wrongType.getPath().isEmpty()) {
                throw new BadRequest(400, "malformed JSON: " + wrongType.getOriginalMessage().lines().findFirst().orElse(""));
            }
            String field = wrongType.getPath().get(wrongType.getPath().size() - 1).getFieldName();
            JsonToken got = parser.currentToken();
            if ((field.equals("token") || field.equals("amount")) && got == JsonToken.VALUE_NUMBER_FLOAT) {
                throw new BadRequest(400, field + " must be a whole number, got " + text(parser));
            }
            throw new BadRequest(400, field + " must be " + expected(field) + ", got " + (got == null ? "nothing" : Json.kind(got)) + " " + text(parser));
        } catch (JsonProcessingException malformed) {
            if (malformed instanceof InputCoercionException || malformed.getCause() instanceof InputCoercionException) {
                String field = parser.getParsingContext().getCurrentName();
                throw new BadRequest(400, "token".equals(field) ? "token is too large for a 64-bit revision: " + text(parser)
                        : (field == null ? "a number" : field) + " is too large for 64 bits: " + text(parser));
            }
            JsonLocation where = malformed.getLocation();
            throw new BadRequest(400, "malformed JSON: " + malformed.getOriginalMessage().lines().findFirst().orElse("")
                    + (where == null ? "" : " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")"));
        } catch (IOException e) {
            throw new BadRequest(400, "the body could not be read: " + e.getMessage());
        } finally {
            closeQuietly(parser);
        }
    }

    private static void closeQuietly(JsonParser parser) {
        try {
            parser.close();
        } catch (IOException overAByteArray) {
            // Closing a parser over a byte array releases buffers only; it has nothing to fail on.
        }
    }

    private static String expected(String field) {
        return field.equals("token") || field.equals("amount") ? "a JSON integer" : "a JSON string";
    }

    private static String text(JsonParser parser) {
        try {
            return parser.getText();
        } catch (IOException unreadable) {
            return "";
        }
    }
}
