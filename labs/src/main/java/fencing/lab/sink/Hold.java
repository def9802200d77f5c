package fencing.lab.sink;

import fencing.lab.common.Times;
import fencing.support.evidence.SinkReply;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** The injected pause of the broken sink: holds one armed write between its check and its write. */
final class Hold implements CheckOutsideTransactionSink.Pause {
    /** How long a write is held at most, so that a runner that died cannot leave a request hanging. */
    static final Duration HOLD_LIMIT = Duration.ofSeconds(10);

    private boolean armed;
    private boolean holding;
    private boolean released;
    private long heldToken = -1;
    private long markSeen = -1;
    private long heldSinceMicros;
    private String ended = "";

    synchronized void arm() {
        armed = true;
        holding = false;
        released = false;
        heldToken = -1;
        markSeen = -1;
        ended = "";
    }

    @Override
    public synchronized void betweenCheckAndWrite(long token, long seen) {
        if (!armed) {
            return;
        }
        armed = false;
        holding = true;
        heldToken = token;
        markSeen = seen;
        heldSinceMicros = Times.nowMicros();
        long deadline = System.nanoTime() + HOLD_LIMIT.toNanos();
        try {
            while (!released) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    // Bounded on purpose: a runner that died must not leave a request hanging forever.
                    ended = "hold limit of " + HOLD_LIMIT.toSeconds() + " s reached";
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ended = "interrupted";
        }
        if (ended.isEmpty()) {
            ended = "released";
        }
        holding = false;
    }

    synchronized void release() {
        released = true;
        notifyAll();
    }

    synchronized SinkReply.HoldStatus status() {
        return new SinkReply.HoldStatus(armed, holding, heldToken, markSeen, heldSinceMicros, ended);
    }
}
