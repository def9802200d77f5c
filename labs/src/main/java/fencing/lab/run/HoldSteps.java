package fencing.lab.run;

import com.fasterxml.jackson.databind.JsonNode;
import fencing.support.evidence.Evidence.Kind;
import fencing.support.evidence.Evidence.Lane;
import fencing.lab.sink.Exchange;
import fencing.lab.sink.SinkClient;
import java.time.Duration;
import java.util.function.BiConsumer;

/** The steps of the check-outside-transaction case: hold A's write at the broken sink's gap, and let it go. */
final class HoldSteps {

    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(15);

    private final SinkClient asRunner;
    private final Journal journal;
    private final BiConsumer<String, Object[]> progress;

    HoldSteps(SinkClient asRunner, Journal journal, BiConsumer<String, Object[]> progress) {
        this.asRunner = asRunner;
        this.journal = journal;
        this.progress = progress;
    }

    void arm() {
        Exchange arm = asRunner.call("POST", "/control/hold-next-write", null);
        journal.exchange(arm);
        Calls.requireOk(arm, "arming the hold");
    }

    void awaitHeld() {
        long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Exchange held = asRunner.call("GET", "/control/held", null);
            Calls.requireOk(held, "asking whether A's write is held");
            if (held.response().path("holding").asBoolean(false)) {
                journal.exchange(held);
                JsonNode status = held.response();
                journal.add(Lane.SINK, Kind.WRITE_HELD, status.get("heldSinceMicros").asLong(), "A's check passed, held",
                        "the broken sink read mark " + status.get("markSeen").asLong() + " outside any transaction, found token "
                                + status.get("heldToken").asLong() + " not older, and is held before its write",
                        status.get("heldToken").asLong(), "fenced", null);
                progress.accept("A's fenced write passed the broken sink's check (mark %d) and is held between check and write",
                        new Object[] {status.get("markSeen").asLong()});
                return;
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        throw new IllegalStateException("A's write to the fenced mode was not held within " + STEP_TIMEOUT.toSeconds() + " s");
    }

    void release() {
        Exchange release = asRunner.call("POST", "/control/release", null);
        journal.exchange(release);
        Calls.requireOk(release, "releasing the hold");
        journal.add(Lane.SINK, Kind.HOLD_RELEASED, release.receivedAtMicros(), "hold released", "A's write goes on to its UPDATE, after B's commit");
    }
}
