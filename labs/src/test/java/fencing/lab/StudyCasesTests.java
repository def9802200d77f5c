package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.SinkRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The study's other cases, each run for real: pre-contact, the sink restart, the broken sink, the restore drill, the forged token and the retry. */
@Tag("etcd")
@Timeout(120)
class StudyCasesTests {

    @Test
    @DisplayName("pre-contact: A writes after its lease expired but before B reaches the sink, and the fenced sink accepts it")
    void preContactLateWriteIsAcceptedUnderTheNarrowerContract(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "pre-contact");
        Evidence.Repeat repeat = run.repeat();
        long aToken = repeat.lock().a().token();
        long bToken = repeat.lock().b().token();
        Evidence.Call aFenced = run.write("A", "fenced");
        Evidence.Call bFenced = run.write("B", "fenced");

        assertThat(run.exitCode).as("the pre-contact repeat ends as expected; the study said:%n%s%s", run.out, run.err).isZero();
        assertThat(aFenced.receivedAtMicros()).as("A wrote before B contacted the sink")
                .isLessThan(bFenced.sentAtMicros());
        assertThat(aFenced.verdict())
                .as("with no token above %d seen yet, the mark has nothing to reject A's write by", aToken).isEqualTo("accepted");
        assertThat(repeat.judgement().contractNote()).as("the evidence records A's write as accepted under the narrower contract")
                .contains("narrower contract");
        assertThat(bFenced.verdict()).as("B's later write with the larger token %d still wins", bToken).isEqualTo("accepted");
        assertThat(repeat.modes().get("fenced").finalValue()).as("the fenced sink ends at B's value").isEqualTo("B-current");
        assertThat(repeat.modes().get("fenced").finalHighWaterMark()).as("the fenced sink's mark ends at B's token").isEqualTo(bToken);
        assertThat(run.file("report.md")).as("the report explains why accepting A is not a violation").contains("narrower contract");
        assertThat(run.write("A", "current-owner").verdict())
                .as("the current-owner sink asks etcd, which says B's key (revision %d) holds the lock, not A's %d", bToken, aToken)
                .isEqualTo("rejected");
        assertThat(run.write("A", "current-owner").receivedAtMicros()).as("and it rejected A before B had written anything")
                .isLessThan(bFenced.sentAtMicros());
        assertThat(run.write("B", "current-owner").verdict()).as("B's write, from the holder, is accepted").isEqualTo("accepted");
        assertThat(repeat.modes().get("current-owner").finalValue()).as("current-owner ends at B's value").isEqualTo("B-current");
        assertThat(repeat.modes().get("plain").finalValue()).as("B's value wins in plain too").isEqualTo("B-current");
    }

    @Test
    @DisplayName("forged: C never holds the lock and sends token 10^12; fenced takes it and locks B out, current-owner rejects it and takes B")
    void aForgedTokenLocksTheFencedSinkOutAndTheCurrentOwnerSinkIsNotFooled(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "forged");
        Evidence.Repeat repeat = run.repeat();
        long bToken = repeat.lock().b().token();
        long forged = run.write("C", "fenced").request().token();
        Map<String, Evidence.ModeOutcome> modes = repeat.modes();

        assertThat(run.exitCode).as("the forged repeat ends as expected; the study said:%n%s%s", run.out, run.err).isZero();
        assertThat(forged).as("C's token is made up, far above any revision").isEqualTo(1_000_000_000_000L);
        assertThat(dir.resolve("repeat-01/writer-C.log")).as("C ran as a process of its own, with its own log").exists();
        assertThat(event(repeat, Evidence.Lane.C, EventKind.FORGED_WRITE).about().token()).as("the timeline has C's lane with the forged token").isEqualTo(forged);
        for (String mode : new String[] {"plain", "fenced"}) {
            assertThat(run.write("C", mode).verdict()).as("%s trusts any token it is given, so it accepts C's", mode).isEqualTo("accepted");
        }
        assertThat(run.write("B", "fenced").verdict())
                .as("after the forged token the fenced sink rejects the real owner's token %d: locked out", bToken).isEqualTo("rejected");
        assertThat(modes.get("fenced").finalHighWaterMark()).as("the fenced mark stays at the forged token").isEqualTo(forged);
        assertThat(modes.get("fenced").finalValue()).as("the fenced sink ends at C's value").isEqualTo("C-forged");
        assertThat(run.write("C", "current-owner").verdict()).as("C's token is not the lock key's create_revision").isEqualTo("rejected");
        assertThat(run.write("B", "current-owner").verdict()).as("B holds the lock, so current-owner accepts it").isEqualTo("accepted");
        assertThat(modes.get("current-owner").finalHighWaterMark()).as("current-owner's mark is B's token").isEqualTo(bToken);
        assertThat(modes.get("current-owner").cVerdict()).as("the outcome records C's verdict per mode").isEqualTo("rejected");
        assertThat(run.file("report.md")).as("the report says the fenced sink is locked out").contains("locked out").contains("C rejected");
        assertThat(run.file("report.html")).as("report.html draws C's lane").contains("<g class=\"lane\" data-lane=\"C\">");
    }

    @Test
    @DisplayName("retry: B's request is applied, its answer lost, and retried: the fenced counter applies it twice, the idempotent ledger once")
    void aRetriedRequestIsAppliedTwiceByTheCounterAndOnceByTheIdempotentLedger(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "retry");
        Evidence.Repeat repeat = run.repeat();
        Map<String, Evidence.LedgerOutcome> ledgers = repeat.ledgers();
        List<String> attempts = new ArrayList<>();
        for (Evidence.Call call : repeat.trace().exchanges()) {
            if (call.from().equals("B") && call.path().startsWith("/ledgers/")) {
                // A body other than a ledger request shows in the list as such, so the list then differs from the one expected.
                String requestId = call.request() instanceof SinkRequest.LedgerAdd add ? add.requestId() : "(not a ledger request: " + call.request() + ")";
                attempts.add(call.path() + " " + requestId + " " + call.verdict());
            }
        }

        assertThat(run.exitCode).as("the retry repeat ends as expected; the study said:%n%s%s", run.out, run.err).isZero();
        assertThat(attempts).as("each ledger's first answer to B-1 was lost, and B sent B-1 again").containsExactly(
                "/ledgers/fenced-counter/add B-1 lost", "/ledgers/fenced-counter/add B-1 accepted",
                "/ledgers/idempotent/add B-1 lost", "/ledgers/idempotent/add B-1 duplicate");
        assertThat(ledgers.get("fenced-counter").finalTotal()).as("the fenced counter added B-1's +5 twice").isEqualTo(10);
        assertThat(ledgers.get("fenced-counter").applied()).as("applied twice").isEqualTo(2);
        assertThat(ledgers.get("idempotent").finalTotal()).as("the idempotent ledger added it once").isEqualTo(5);
        assertThat(ledgers.get("idempotent").verdicts()).as("and answered the retry as a duplicate").contains("duplicate");
        assertThat(event(repeat, Evidence.Lane.B, EventKind.RESPONSE_LOST).about().mode()).as("the timeline records the lost answer").isEqualTo("fenced-counter");
        assertThat(run.file("report.md")).as("report.md shows the ledger verdicts and totals").contains("duplicate").contains("total 10");
        assertThat(run.file("report.html")).as("report.html has the ledgers' table").contains("<tr data-ledger=\"idempotent\" class=\"pass\">");
    }

    @Test
    @DisplayName("restart: the sink killed with SIGKILL and restarted between B's write and A's still rejects A")
    void restartedSinkStillRejectsTheLateWriteBecauseTheMarkIsDurable(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "restart");
        Evidence.Repeat repeat = run.repeat();
        long aToken = repeat.lock().a().token();
        long bToken = repeat.lock().b().token();
        double killed = eventTime(repeat, Evidence.Lane.SINK, EventKind.SINK_KILLED);
        double restarted = eventTime(repeat, Evidence.Lane.SINK, EventKind.SINK_RESTARTED);

        assertThat(run.exitCode).as("the restart repeat ends as expected; the study said:%n%s%s", run.out, run.err).isZero();
        assertThat(killed).as("the sink was killed after B's fenced write").isGreaterThan(run.write("B", "fenced").tReceivedMillis());
        assertThat(restarted).as("and restarted before A's late write").isLessThan(run.write("A", "fenced").tSentMillis());
        assertThat(run.write("A", "fenced").verdict())
                .as("a write with token %d after token %d must be rejected, even by a restarted sink: the mark is in SQLite", aToken, bToken)
                .isEqualTo("rejected");
        assertThat(repeat.modes().get("fenced").finalValue()).as("the fenced sink keeps B's value").isEqualTo("B-current");
        assertThat(repeat.modes().get("plain").finalValue()).as("the plain sink ends at A's late value").isEqualTo("A-late");
    }

    @Test
    @DisplayName("check-outside-transaction: with the comparison outside the transaction, B commits in the gap and A's stale write wins")
    void checkOutsideTheTransactionLetsTheStaleWriteOverwriteTheNewerOne(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "check-outside-transaction");
        Evidence.Repeat repeat = run.repeat();
        long aToken = repeat.lock().a().token();
        long bToken = repeat.lock().b().token();
        Evidence.Call aFenced = run.write("A", "fenced");
        Evidence.Call bFenced = run.write("B", "fenced");

        assertThat(run.exitCode).as("the race is shown as expected; the study said:%n%s%s", run.out, run.err).isZero();
        assertThat(repeat.modes().get("fenced").sink()).as("the fenced mode ran the broken teaching sink")
                .isEqualTo("CheckOutsideTransactionSink");
        assertThat(StudyRun.verdictOf(bFenced).decidedAtMicros()).as("B's write with token %d committed first", bToken)
                .isLessThan(StudyRun.verdictOf(aFenced).decidedAtMicros());
        assertThat(aFenced.verdict())
                .as("the broken sink accepts token %d after token %d committed: its check saw the mark before B's write", aToken, bToken)
                .isEqualTo("accepted");
        assertThat(repeat.modes().get("fenced").finalValue()).as("the stale value overwrote B's").isEqualTo("A-late");
        assertThat(repeat.modes().get("fenced").finalHighWaterMark()).as("and the mark went back to A's token")
                .isEqualTo(aToken);
    }

    @Test
    @DisplayName("restore: etcd restored from a snapshot rejects its next owner until Recovery raises the epoch; a sink restored from a backup takes A")
    void restoredEtcdGoesBackwardsAndARestoredSinkForgetsItsMark(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "restore");
        Evidence.Repeat repeat = run.repeat();
        Evidence.Event restored = event(repeat, Evidence.Lane.ETCD, EventKind.ETCD_RESTORED);
        long lastBefore = StudyRun.verdictOf(run.write("C3", "fenced")).token();
        long afterRestore = StudyRun.verdictOf(run.write("D", "fenced")).token();
        long recovered = StudyRun.verdictOf(run.write("E", "fenced")).token();
        String origin = run.evidence().setup().etcd();
        Path workDir = Path.of(origin.replaceAll("(?s).*data in (\\S+?)\\)$", "$1"));

        assertThat(run.exitCode).as("the restore repeat ends as expected; the study said:%n%s%s", run.out, run.err).isZero();
        assertThat(restored.label()).as("the evidence shows etcd's revision going backwards").matches("restored: rev (\\d+) → (\\d+)");
        String[] revisions = restored.label().replaceAll("[^0-9 ]", "").trim().split("\\s+");
        assertThat(Long.parseLong(revisions[1])).as("the revision after the restore is below the one before").isLessThan(Long.parseLong(revisions[0]));
        assertThat(afterRestore).as("D's token after the restore is below C3's %d from before it", lastBefore).isLessThan(lastBefore);
        assertThat(run.write("D", "fenced").verdict()).as("the fenced sink rejects D: safe but stuck").isEqualTo("rejected");
        assertThat(recovered).as("E's epoch token is above every token before the restore").isGreaterThan(lastBefore);
        assertThat(run.write("E", "fenced").verdict()).as("the fenced sink accepts E after Recovery").isEqualTo("accepted");
        assertThat(run.write("A", "fenced").verdict())
                .as("after the sink's restore from a backup older than B's write, A's late write is accepted again").isEqualTo("accepted");
        assertThat(workDir).as("the study's own etcd, its snapshots and data directories are gone (origin: %s)", origin).doesNotExist();
    }

    private static Evidence.Event event(Evidence.Repeat repeat, Evidence.Lane lane, EventKind kind) {
        for (Evidence.Event event : repeat.trace().events()) {
            if (event.lane() == lane && event.kind() == kind) {
                return event;
            }
        }
        throw new AssertionError("no " + lane.label() + " event of kind " + kind + " in " + repeat.trace().events());
    }

    private static double eventTime(Evidence.Repeat repeat, Evidence.Lane lane, EventKind kind) {
        return event(repeat, lane, kind).tMillis();
    }
}
