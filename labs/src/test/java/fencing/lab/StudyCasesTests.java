package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The study's other cases, each run for real: the pre-contact extension, the sink restart, the broken sink and the restore drill. */
@Tag("etcd")
@Timeout(120)
class StudyCasesTests {

    @Test
    @DisplayName("pre-contact: A writes after its lease expired but before B reaches the sink, and the fenced sink accepts it")
    void preContactLateWriteIsAcceptedUnderTheNarrowerContract(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "pre-contact");
        JsonNode repeat = run.repeat();
        long aToken = repeat.get("a").get("token").asLong();
        long bToken = repeat.get("b").get("token").asLong();
        JsonNode aFenced = run.write("A", "fenced");
        JsonNode bFenced = run.write("B", "fenced");

        assertThat(run.exitCode).as("the pre-contact repeat ends as expected; the study said:%n%s%s", run.out, run.err).isZero();
        assertThat(aFenced.get("receivedAtMicros").asLong()).as("A wrote before B contacted the sink")
                .isLessThan(bFenced.get("sentAtMicros").asLong());
        assertThat(aFenced.get("verdict").asText())
                .as("with no token above %d seen yet, the mark has nothing to reject A's write by", aToken).isEqualTo("accepted");
        assertThat(repeat.get("contractNote").asText()).as("the evidence records A's write as accepted under the narrower contract")
                .contains("narrower contract");
        assertThat(bFenced.get("verdict").asText()).as("B's later write with the larger token %d still wins", bToken).isEqualTo("accepted");
        assertThat(repeat.get("modes").get("fenced").get("finalValue").asText()).as("the fenced sink ends at B's value").isEqualTo("B-current");
        assertThat(repeat.get("modes").get("fenced").get("finalHighWaterMark").asLong()).as("the fenced sink's mark ends at B's token").isEqualTo(bToken);
        assertThat(run.file("report.md")).as("the report explains why accepting A is not a violation").contains("narrower contract");
    }

    @Test
    @DisplayName("restart: the sink killed with SIGKILL and restarted between B's write and A's still rejects A")
    void restartedSinkStillRejectsTheLateWriteBecauseTheMarkIsDurable(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "restart");
        JsonNode repeat = run.repeat();
        long aToken = repeat.get("a").get("token").asLong();
        long bToken = repeat.get("b").get("token").asLong();
        double killed = eventTime(repeat, "sink", "SINK_KILLED");
        double restarted = eventTime(repeat, "sink", "SINK_RESTARTED");

        assertThat(run.exitCode).as("the restart repeat ends as expected; the study said:%n%s%s", run.out, run.err).isZero();
        assertThat(killed).as("the sink was killed after B's fenced write").isGreaterThan(run.write("B", "fenced").get("tReceivedMillis").asDouble());
        assertThat(restarted).as("and restarted before A's late write").isLessThan(run.write("A", "fenced").get("tSentMillis").asDouble());
        assertThat(run.write("A", "fenced").get("verdict").asText())
                .as("a write with token %d after token %d must be rejected, even by a restarted sink: the mark is in SQLite", aToken, bToken)
                .isEqualTo("rejected");
        assertThat(repeat.get("modes").get("fenced").get("finalValue").asText()).as("the fenced sink keeps B's value").isEqualTo("B-current");
        assertThat(repeat.get("modes").get("plain").get("finalValue").asText()).as("the plain sink ends at A's late value").isEqualTo("A-late");
    }

    @Test
    @DisplayName("check-outside-transaction: with the comparison outside the transaction, B commits in the gap and A's stale write wins")
    void checkOutsideTheTransactionLetsTheStaleWriteOverwriteTheNewerOne(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "check-outside-transaction");
        JsonNode repeat = run.repeat();
        long aToken = repeat.get("a").get("token").asLong();
        long bToken = repeat.get("b").get("token").asLong();
        JsonNode aFenced = run.write("A", "fenced");
        JsonNode bFenced = run.write("B", "fenced");

        assertThat(run.exitCode).as("the race is shown as expected; the study said:%n%s%s", run.out, run.err).isZero();
        assertThat(repeat.get("modes").get("fenced").get("sink").asText()).as("the fenced mode ran the broken teaching sink")
                .isEqualTo("CheckOutsideTransactionSink");
        assertThat(bFenced.get("response").get("decidedAtMicros").asLong()).as("B's write with token %d committed first", bToken)
                .isLessThan(aFenced.get("response").get("decidedAtMicros").asLong());
        assertThat(aFenced.get("verdict").asText())
                .as("the broken sink accepts token %d after token %d committed: its check saw the mark before B's write", aToken, bToken)
                .isEqualTo("accepted");
        assertThat(repeat.get("modes").get("fenced").get("finalValue").asText()).as("the stale value overwrote B's").isEqualTo("A-late");
        assertThat(repeat.get("modes").get("fenced").get("finalHighWaterMark").asLong()).as("and the mark went back to A's token")
                .isEqualTo(aToken);
    }

    @Test
    @DisplayName("restore: etcd restored from a snapshot rejects its next owner until Recovery raises the epoch; a sink restored from a backup takes A")
    void restoredEtcdGoesBackwardsAndARestoredSinkForgetsItsMark(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "restore");
        JsonNode repeat = run.repeat();
        JsonNode restored = event(repeat, "etcd", "ETCD_RESTORED");
        long lastBefore = run.write("C3", "fenced").get("response").get("token").asLong();
        long afterRestore = run.write("D", "fenced").get("response").get("token").asLong();
        long recovered = run.write("E", "fenced").get("response").get("token").asLong();
        String origin = run.evidence().get("etcd").asText();
        Path workDir = Path.of(origin.replaceAll("(?s).*data in (\\S+?)\\)$", "$1"));

        assertThat(run.exitCode).as("the restore repeat ends as expected; the study said:%n%s%s", run.out, run.err).isZero();
        assertThat(restored.get("label").asText()).as("the evidence shows etcd's revision going backwards").matches("restored: rev (\\d+) → (\\d+)");
        String[] revisions = restored.get("label").asText().replaceAll("[^0-9 ]", "").trim().split("\\s+");
        assertThat(Long.parseLong(revisions[1])).as("the revision after the restore is below the one before").isLessThan(Long.parseLong(revisions[0]));
        assertThat(afterRestore).as("D's token after the restore is below C3's %d from before it", lastBefore).isLessThan(lastBefore);
        assertThat(run.write("D", "fenced").get("verdict").asText()).as("the fenced sink rejects D: safe but stuck").isEqualTo("rejected");
        assertThat(recovered).as("E's epoch token is above every token before the restore").isGreaterThan(lastBefore);
        assertThat(run.write("E", "fenced").get("verdict").asText()).as("the fenced sink accepts E after Recovery").isEqualTo("accepted");
        assertThat(run.write("A", "fenced").get("verdict").asText())
                .as("after the sink's restore from a backup older than B's write, A's late write is accepted again").isEqualTo("accepted");
        assertThat(workDir).as("the study's own etcd, its snapshots and data directories are gone (origin: %s)", origin).doesNotExist();
    }

    private static JsonNode event(JsonNode repeat, String lane, String kind) {
        for (JsonNode event : repeat.get("events")) {
            if (event.get("lane").asText().equals(lane) && event.get("kind").asText().equals(kind)) {
                return event;
            }
        }
        throw new AssertionError("no " + lane + " event of kind " + kind + " in " + repeat.get("events"));
    }

    private static double eventTime(JsonNode repeat, String lane, String kind) {
        for (JsonNode event : repeat.get("events")) {
            if (event.get("lane").asText().equals(lane) && event.get("kind").asText().equals(kind)) {
                return event.get("tMillis").asDouble();
            }
        }
        throw new AssertionError("no " + lane + " event of kind " + kind + " in " + repeat.get("events"));
    }
}
