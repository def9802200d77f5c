package fencing.lab.sink;

import fencing.lab.common.Times;
import fencing.sink.Sink;
import fencing.sink.SinkState;
import fencing.sink.WriteResult;
import fencing.support.evidence.SinkReply;

/** The answers the sink server gives about a mode: its state, and its verdict on a write. */
final class SinkAnswers {

    private SinkAnswers() {
    }

    static SinkReply.ModeState state(String mode, Sink sink, SinkState state) {
        return new SinkReply.ModeState(mode, sink.getClass().getSimpleName(), state.value(), state.highWaterMark());
    }

    static SinkReply.WriteVerdict verdict(String mode, Sink sink, WriteRequest request, WriteResult result) {
        long decided = Times.nowMicros();
        return new SinkReply.WriteVerdict(mode, sink.getClass().getSimpleName(), request.writer(), request.token(), request.value(),
                result.accepted() ? "accepted" : "rejected", result.accepted(), new SinkReply.ModeAfter(result.value(), result.highWaterMark()),
                decided, Times.iso(decided));
    }
}
