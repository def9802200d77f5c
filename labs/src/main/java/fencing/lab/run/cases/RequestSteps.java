package fencing.lab.run.cases;

import fencing.lab.sink.Mode;
import fencing.lab.run.Journal;
import fencing.lab.run.Calls;
import fencing.lab.run.LabProcess;
import fencing.lab.run.Stage;
import fencing.lab.run.Step;
import fencing.lab.run.LabCase;
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

/** The steps of the forged and retry cases: C's made-up token, and B's ledger requests whose first answer is lost. */
final class RequestSteps {

    static final String FORGED = "C-forged";
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(15);

    private RequestSteps() {
    }

    /** C, a process that never held the lock, writes {@code C-forged} with {@link LabCase#FORGED_TOKEN} to each of {@code modes} at once. */
    record ForgedWrite(List<Mode> modes) implements Step {

        ForgedWrite(Mode... modes) {
            this(List.of(modes));
        }

        @Override
        public void run(Stage stage) {
            LabProcess<WorkerReport> forger = stage.prepared().forger();
            if (forger == null) {
                throw new IllegalStateException("this case started no writer C: its forgesToken() is false");
            }
            forger.send(new WorkerCommand.Write(FORGED, modes));
            WorkerReport.Wrote wrote = forger.await(WorkerReport.Wrote.class, STEP_TIMEOUT);
            List<Exchange> writes = new ArrayList<>();
            for (WorkerReport report : forger.seen()) {
                if (report instanceof WorkerReport.Called called && called.exchange().isWrite()) {
                    Exchange write = called.exchange();
                    Calls.requireOk(write, "C's forged write to " + write.mode());
                    writes.add(write);
                    stage.journal().add(Lane.C, EventKind.FORGED_WRITE, write.receivedAtMicros(), FORGED + " → " + write.mode() + ": " + write.verdict(),
                            "token " + wrote.token() + ", made up: C never held the lock", Evidence.About.write(wrote.token(), write.mode().text(), write.verdict()));
                }
            }
            stage.progress("C (pid %d), which never held the lock, wrote %s with the made-up token %d: %s",
                    forger.pid(), FORGED, wrote.token(), Calls.verdicts(writes));
        }
    }

    /** Tells the sink server to lose its first answer to request {@code requestId} of each ledger, after applying it. */
    record LoseFirstResponse(String requestId) implements Step {

        @Override
        public void run(Stage stage) {
            Exchange arm = stage.asRunner().call("POST", "/control/lose-first-response/" + requestId, null);
            stage.journal().exchange(arm);
            Calls.requireOk(arm, "arming the lost response");
            stage.progress("the sink server will apply request %s and lose its first answer from each ledger", requestId);
        }
    }

    /** B sends request {@code requestId} to add {@code amount} to each of {@code ledgers}, and retries it with the same id when the answer is lost. */
    record AddB(String requestId, long amount, List<String> ledgers) implements Step {

        AddB(String requestId, long amount, String... ledgers) {
            this(requestId, amount, List.of(ledgers));
        }

        @Override
        public void run(Stage stage) {
            long token = stage.holderB().ownership().token();
            List<String> said = new ArrayList<>();
            for (String ledger : ledgers) {
                Exchange first = stage.asB().add(ledger, "B", token, requestId, amount);
                stage.journal().exchange(first);
                Exchange answered = first;
                if (first.isLost()) {
                    stage.journal().add(Lane.B, EventKind.RESPONSE_LOST, first.receivedAtMicros(), requestId + " → " + ledger + ": no response",
                            "the sink applied the request and closed the connection without answering (" + first.error() + ")",
                            Evidence.About.ledgerRequest(token, ledger));
                    stage.journal().add(Lane.B, EventKind.RETRIED, Times.nowMicros(), "retries " + requestId, "the same request id, token and amount",
                            Evidence.About.ledgerRequest(token, ledger));
                    answered = stage.asB().add(ledger, "B", token, requestId, amount);
                    stage.journal().exchange(answered);
                }
                Calls.requireOk(answered, "B's request " + requestId + " to " + ledger);
                said.add(ledger + " " + (first.isLost() ? "lost, then " : "") + answered.verdict() + " (total "
                        + answered.reply(SinkReply.LedgerVerdict.class).after().total() + ")");
            }
            stage.progress("B sent request %s (+%d, token %d): %s", requestId, amount, token, String.join(", ", said));
        }
    }
}
