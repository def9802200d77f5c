package fencing.lab.sink;

import fencing.support.evidence.SinkReply;

/** What the sink server answers to one request: a status and a reply, or no answer at all ({@link #LOST}). */
final class Reply {

    /** The request was applied, and its answer is lost on purpose: the connection closes with no response. */
    static final Reply LOST = new Reply(-1, null);

    final int status;
    final SinkReply body;

    private Reply(int status, SinkReply body) {
        this.status = status;
        this.body = body;
    }

    static Reply ok(SinkReply body) {
        return new Reply(200, body);
    }

    static Reply error(int status, String message) {
        return new Reply(status, new SinkReply.Failure(status, message));
    }
}
