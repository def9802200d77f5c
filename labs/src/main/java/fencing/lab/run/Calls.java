package fencing.lab.run;

import fencing.lab.sink.Exchange;
import fencing.support.evidence.SinkReply;
import java.util.ArrayList;
import java.util.List;

/** What the runner's steps say about their calls to the sink: verdicts in a few words, and a call that failed. */
public final class Calls {

    private Calls() {
    }

    /** Returns each write's mode, verdict and the state it left, in a few words. */
    public static String verdicts(List<Exchange> writes) {
        List<String> parts = new ArrayList<>();
        for (Exchange write : writes) {
            parts.add(write.mode() + " " + write.verdict() + (write.response() instanceof SinkReply.WriteVerdict verdict
                    ? " (now " + verdict.after().value() + ", mark " + verdict.after().highWaterMark() + ")" : ""));
        }
        return String.join(", ", parts);
    }

    /** Throws, naming {@code what}, unless the sink answered {@code exchange} with 200. */
    public static void requireOk(Exchange exchange, String what) {
        if (exchange.status() != 200) {
            throw new IllegalStateException(what + " got " + exchange.verdict());
        }
    }

    /** Returns a lease ID as etcd prints it, e.g. {@code 0x22b6a22cf3b36840}. */
    public static String hex(long leaseId) {
        return "0x" + Long.toHexString(leaseId);
    }
}
