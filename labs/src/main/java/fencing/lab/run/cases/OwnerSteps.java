package fencing.lab.run.cases;

import fencing.lab.sink.Mode;
import fencing.lab.run.Journal;
import fencing.lab.run.Calls;
import fencing.lab.run.Stage;
import fencing.lab.run.Step;
import fencing.etcd.Ownership;
import fencing.lab.common.Times;
import fencing.lab.sink.Exchange;
import fencing.support.evidence.SinkReply;
import fencing.lab.worker.WorkerCommand;
import fencing.lab.worker.WorkerReport;
import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The steps of the two owners: B writes and releases, A resumes and writes late, and a line said between them. */
final class OwnerSteps {

    static final String LATE = "A-late";
    static final String CURRENT = "B-current";
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(15);

    private OwnerSteps() {
    }

    /** B writes {@code B-current} with its token to each of {@code modes} at once. */
    record WriteB(List<Mode> modes) implements Step {

        WriteB(Mode... modes) {
            this(List.of(modes));
        }

        @Override
        public void run(Stage stage) {
            Ownership b = stage.holderB().ownership();
            List<Exchange> writes = stage.asB().writeAll(stage.active(modes), "B", b.token(), CURRENT);
            for (Exchange write : writes) {
                stage.journal().exchange(write);
                Calls.requireOk(write, "B's write to " + write.mode());
                stage.journal().add(Lane.B, EventKind.WROTE, write.receivedAtMicros(), CURRENT + " → " + write.mode() + ": " + write.verdict(),
                        "token " + b.token(), Evidence.About.write(b.token(), write.mode().text(), write.reply(SinkReply.WriteVerdict.class).verdict()));
            }
            stage.progress("B wrote %s with token %d: %s", CURRENT, b.token(), Calls.verdicts(writes));
        }
    }

    /** A is told to write {@code A-late} to each of {@code modes} and resumed; the step does not wait for its write. */
    record ResumeAWriting(List<Mode> modes) implements Step {

        ResumeAWriting(Mode... modes) {
            this(List.of(modes));
        }

        @Override
        public void run(Stage stage) {
            // Queued while A is frozen: on SIGCONT it goes on with what it was about to do.
            stage.prepared().worker().send(new WorkerCommand.Write(LATE, stage.active(modes)));
            long resumedAt = Times.nowMicros();
            stage.prepared().worker().resume();
            stage.journal().add(Lane.A, EventKind.RESUMED, resumedAt, "SIGCONT", "resumed; it writes " + LATE + " with its old token, never checking its lease");
        }
    }

    /** Waits for A's write to be done, and says its verdicts. */
    record AwaitAWrote() implements Step {

        @Override
        public void run(Stage stage) {
            WorkerReport.Wrote wrote = stage.prepared().worker().await(WorkerReport.Wrote.class, STEP_TIMEOUT);
            stage.progress("A resumed with SIGCONT and wrote %s with its old token %d: %s", LATE, wrote.token(), Calls.verdicts(writes(stage)));
        }

        /** Returns A's writes so far, each required to have had an answer. */
        static List<Exchange> writes(Stage stage) {
            List<Exchange> writes = new ArrayList<>();
            for (WorkerReport report : stage.prepared().worker().seen()) {
                if (report instanceof WorkerReport.Called called && called.exchange().isWrite()) {
                    Calls.requireOk(called.exchange(), "A's write to " + called.exchange().mode());
                    writes.add(called.exchange());
                }
            }
            return writes;
        }
    }

    /** A writes late: it is resumed writing to each of {@code modes}, and the step waits for its write. */
    record LateWriteA(List<Mode> modes) implements Step {

        LateWriteA(Mode... modes) {
            this(List.of(modes));
        }

        @Override
        public void run(Stage stage) {
            new ResumeAWriting(modes).run(stage);
            new AwaitAWrote().run(stage);
        }
    }

    /**
     * A, never frozen, is told its work is done and writes {@code A-late} to each of {@code modes}; the step waits for its write.
     *
     * <p>Run once B's write is recorded, so that A's write comes after B's whatever the machine's load: the order is caused.
     */
    record WorkDoneA(List<Mode> modes) implements Step {

        WorkDoneA(Mode... modes) {
            this(List.of(modes));
        }

        @Override
        public void run(Stage stage) {
            stage.prepared().worker().send(new WorkerCommand.Write(LATE, stage.active(modes)));
            WorkerReport.Wrote wrote = stage.prepared().worker().await(WorkerReport.Wrote.class, STEP_TIMEOUT);
            stage.progress("A, still cut off from etcd, finished its work and wrote %s with its old token %d: %s", LATE, wrote.token(),
                    Calls.verdicts(AwaitAWrote.writes(stage)));
        }
    }

    /** B stops keeping its lease alive and releases the lock. */
    record ReleaseB() implements Step {

        @Override
        public void run(Stage stage) {
            long token = stage.holderB().ownership().token();
            boolean deleted = stage.holderB().release().orElse(false);
            stage.progress("B released the lock (token %d): %s", token, deleted ? "its key deleted" : "its key was already gone");
        }
    }

    /** Prints {@code line} among the progress lines, e.g. what the case is about to show. */
    record Say(String line) implements Step {

        @Override
        public void run(Stage stage) {
            stage.progress("%s", line);
        }
    }
}
