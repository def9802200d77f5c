package fencing.lab.sink;

import com.fasterxml.jackson.databind.node.ObjectNode;
import fencing.lab.common.Json;
import fencing.lab.common.Times;
import fencing.sink.Sink;
import fencing.sink.SinkState;
import fencing.sink.WriteResult;

/** The JSON bodies the sink server answers about a mode: its state, and its verdict on a write. */
final class SinkAnswers {

    private SinkAnswers() {
    }

    static ObjectNode state(String mode, Sink sink, SinkState state) {
        ObjectNode body = Json.object();
        body.put("mode", mode);
        body.put("sink", sink.getClass().getSimpleName());
        body.put("value", state.value());
        body.put("highWaterMark", state.highWaterMark());
        return body;
    }

    static ObjectNode verdict(String mode, Sink sink, WriteRequest request, WriteResult result) {
        ObjectNode body = Json.object();
        body.put("mode", mode);
        body.put("sink", sink.getClass().getSimpleName());
        body.put("writer", request.writer());
        body.put("token", request.token());
        body.put("value", request.value());
        body.put("verdict", result.accepted() ? "accepted" : "rejected");
        body.put("accepted", result.accepted());
        ObjectNode after = body.putObject("after");
        after.put("value", result.value());
        after.put("highWaterMark", result.highWaterMark());
        stampDecided(body);
        return body;
    }

    /** Adds when the answer was decided, in microseconds and as an ISO time, as every verdict carries it. */
    static void stampDecided(ObjectNode body) {
        long decided = Times.nowMicros();
        body.put("decidedAtMicros", decided);
        body.put("decidedAt", Times.iso(decided));
    }
}
