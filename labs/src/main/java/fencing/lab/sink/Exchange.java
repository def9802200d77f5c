package fencing.lab.sink;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * One HTTP request to the sink and its response, as the client saw them.
 *
 * @param from             who sent it: {@code A}, {@code B} or {@code runner}
 * @param method           the HTTP method
 * @param path             the path, e.g. {@code /sinks/fenced/write}
 * @param request          the JSON body sent, or {@code null} for a GET
 * @param status           the HTTP status, or -1 when no response came
 * @param response         the JSON body received, or {@code null} when none came
 * @param error            why no response came, or {@code null}
 * @param sentAtMicros     when the request left, in epoch microseconds
 * @param receivedAtMicros when the response arrived (or the call failed), in epoch microseconds
 */
public record Exchange(String from, String method, String path, JsonNode request, int status, JsonNode response, String error,
                long sentAtMicros, long receivedAtMicros) {

    public Exchange {
        // JSON null read back from a worker's line is no body at all.
        request = request == null || request.isNull() ? null : request;
        response = response == null || response.isNull() ? null : response;
    }

    /** Returns whether this was a write the sink accepted. */
    public boolean accepted() {
        return status == 200 && response != null && response.path("accepted").asBoolean(false);
    }

    /** Returns the sink's verdict ({@code accepted} or {@code rejected}), or what went wrong instead. */
    public String verdict() {
        if (status == 200 && response != null && response.has("verdict")) {
            return response.get("verdict").asText();
        }
        if (status == -1) {
            return "no response (" + error + ")";
        }
        return "HTTP " + status + (response != null && response.has("error") ? ": " + response.get("error").asText() : "");
    }

    /** Returns the mode or ledger named in the path, e.g. {@code fenced} or {@code idempotent}, or an empty string. */
    public String mode() {
        String[] parts = path.split("/");
        return parts.length >= 3 && (parts[1].equals("sinks") || parts[1].equals("ledgers")) ? parts[2] : "";
    }

    /** Returns whether this was a write. */
    @JsonIgnore
    public boolean isWrite() {
        return method.equals("POST") && path.startsWith("/sinks/") && path.endsWith("/write");
    }

    /** Returns whether this was a request to a ledger. */
    @JsonIgnore
    public boolean isLedgerAdd() {
        return method.equals("POST") && path.startsWith("/ledgers/") && path.endsWith("/add");
    }

    /** Returns whether the request went out and no response came: the client cannot tell whether it was applied. */
    @JsonIgnore
    public boolean isLost() {
        return status == -1;
    }

    /** Returns when the sink decided, from its response, or when the response arrived if it did not say. */
    public long decidedAtMicros() {
        return response != null && response.has("decidedAtMicros") ? response.get("decidedAtMicros").asLong() : receivedAtMicros;
    }
}
