package fencing.lab.sink;

import com.fasterxml.jackson.databind.node.ObjectNode;
import fencing.lab.common.Json;

/** What the sink server answers to one request: a status and a JSON body, or no answer at all ({@link #LOST}). */
final class Reply {

    /** The request was applied, and its answer is lost on purpose: the connection closes with no response. */
    static final Reply LOST = new Reply(-1, null);

    final int status;
    final ObjectNode body;

    private Reply(int status, ObjectNode body) {
        this.status = status;
        this.body = body;
    }

    static Reply ok(ObjectNode body) {
        return new Reply(200, body);
    }

    static Reply error(int status, String message) {
        ObjectNode body = Json.object();
        body.put("status", status);
        body.put("error", message);
        return new Reply(status, body);
    }
}
