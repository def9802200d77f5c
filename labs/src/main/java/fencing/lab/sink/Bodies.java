package fencing.lab.sink;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;

/** Reads a request's JSON body within the sink server's limits, saying what was wrong when it is not one. */
final class Bodies {

    /** The largest request body accepted, in bytes. */
    static final int MAX_BODY_BYTES = 4096;

    private Bodies() {
    }

    /** Returns the body of {@code exchange}: JSON, not empty, at most {@link #MAX_BODY_BYTES}; {@code shape} says what to send. */
    static byte[] read(HttpExchange exchange, String shape) throws IOException {
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        if (type != null && !type.split(";", 2)[0].trim().equalsIgnoreCase("application/json")) {
            throw new BadRequest(415, "the body must be JSON: send Content-Type: application/json, not " + type);
        }
        String declared = exchange.getRequestHeaders().getFirst("Content-Length");
        if (declared != null) {
            long length;
            try {
                length = Long.parseLong(declared.trim());
            } catch (NumberFormatException e) {
                throw new BadRequest(400, "Content-Length is not a number: " + declared);
            }
            if (length > MAX_BODY_BYTES) {
                throw tooLarge(length + " bytes");
            }
        }
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readNBytes(MAX_BODY_BYTES + 1);
        }
        if (body.length > MAX_BODY_BYTES) {
            throw tooLarge("more than " + MAX_BODY_BYTES + " bytes");
        }
        if (body.length == 0) {
            throw new BadRequest(400, "the body is empty: send a JSON object " + shape);
        }
        return body;
    }

    private static BadRequest tooLarge(String size) {
        return new BadRequest(413, "the body is too large (" + size + "): a request is at most " + MAX_BODY_BYTES + " bytes");
    }
}
