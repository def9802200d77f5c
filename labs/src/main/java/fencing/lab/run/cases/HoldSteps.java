package fencing.lab.run.cases;

import fencing.lab.sink.Mode;
import fencing.lab.run.Journal;
import fencing.lab.run.Calls;
import fencing.lab.run.Stage;
import fencing.lab.run.Step;
import fencing.lab.sink.Exchange;
import fencing.support.evidence.SinkReply;
import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;
import java.time.Duration;

/** The steps of the check-outside-transaction case: hold A's write at the broken sink's gap, and let it go. */
final class HoldSteps {

    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(15);

    private HoldSteps() {
    }

    /** Arms the broken sink to hold the next fenced write between its check and its write. */
    record ArmHold() implements Step {

        @Override
        public void run(Stage stage) {
            Exchange arm = stage.asRunner().call("POST", "/control/hold-next-write", null);
            stage.journal().exchange(arm);
            Calls.requireOk(arm, "arming the hold");
        }
    }

    /** Waits until the broken sink holds A's write. */
    record AwaitHeld() implements Step {

        @Override
        public void run(Stage stage) {
            long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
            while (System.nanoTime() < deadline) {
                Exchange held = stage.asRunner().call("GET", "/control/held", null);
                Calls.requireOk(held, "asking whether A's write is held");
                SinkReply.HoldStatus status = held.reply(SinkReply.HoldStatus.class);
                if (status.holding()) {
                    stage.journal().exchange(held);
                    stage.journal().add(Lane.SINK, EventKind.WRITE_HELD, status.heldSinceMicros(), "A's check passed, held",
                            "the broken sink read mark " + status.markSeen() + " outside any transaction, found token "
                                    + status.heldToken() + " not older, and is held before its write",
                            Evidence.About.write(status.heldToken(), Mode.FENCED.text(), null));
                    stage.progress("A's fenced write passed the broken sink's check (mark %d) and is held between check and write",
                            status.markSeen());
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
    }

    /** Lets the held write go on. */
    record ReleaseHold() implements Step {

        @Override
        public void run(Stage stage) {
            Exchange release = stage.asRunner().call("POST", "/control/release", null);
            stage.journal().exchange(release);
            Calls.requireOk(release, "releasing the hold");
            stage.journal().add(Lane.SINK, EventKind.HOLD_RELEASED, release.receivedAtMicros(), "hold released",
                    "A's write goes on to its UPDATE, after B's commit");
        }
    }
}
