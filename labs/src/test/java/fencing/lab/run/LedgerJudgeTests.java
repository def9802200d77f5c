package fencing.lab.run;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.lab.run.cases.Retry;
import fencing.support.evidence.Evidence;
import fencing.lab.sink.Exchange;
import fencing.lab.sink.FencedVariant;
import fencing.lab.sink.SinkClient;
import fencing.lab.sink.SinkServer;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The retry case's judge, on the exchanges of a real sink server: it passes what the case expects, and names what differs. */
class LedgerJudgeTests {

    @TempDir
    Path dir;

    private SinkServer server;
    private Outcome outcome;

    @BeforeEach
    void retryARequestWhoseAnswersAreLost() throws Exception {
        server = SinkServer.start(dir, 0, FencedVariant.FENCED, new PrintStream(OutputStream.nullOutputStream()));
        SinkClient runner = new SinkClient(server.uri(), "runner");
        SinkClient b = new SinkClient(server.uri(), "B");
        List<Exchange> calls = new ArrayList<>();
        calls.add(runner.call("POST", "/control/lose-first-response/" + Retry.REQUEST_ID, null));
        for (String ledger : SinkServer.LEDGERS) {
            calls.add(b.add(ledger, "B", 8, Retry.REQUEST_ID, Retry.AMOUNT));
            calls.add(b.add(ledger, "B", 8, Retry.REQUEST_ID, Retry.AMOUNT));
        }
        for (String ledger : SinkServer.LEDGERS) {
            calls.add(runner.readLedger(ledger));
        }
        Evidence.Holder a = new Evidence.Holder("A", 7, 1, "0x1", 0, 0, null);
        Evidence.Holder bHolder = new Evidence.Holder("B", 8, 2, "0x2", 0, 0, null);
        outcome = new Outcome(a, bHolder, calls);
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    @DisplayName("The retry case's expectations hold: the counter applied the request twice, the idempotent ledger once")
    void passesTheRetryAsTheCaseExpectsIt() {
        List<String> differences = new ArrayList<>();
        Map<String, LabCase.LedgerExpectation> expected = new Retry().expectedLedgers();

        Evidence.LedgerOutcome counter = LedgerJudge.judge(outcome, "fenced-counter", expected.get("fenced-counter"), differences);
        Evidence.LedgerOutcome ledger = LedgerJudge.judge(outcome, "idempotent", expected.get("idempotent"), differences);

        assertThat(differences).as("the real exchanges end as the retry case expects").isEmpty();
        assertThat(counter.verdicts()).as("the counter's answers: the first lost, the retry accepted").containsExactly("lost", "accepted");
        assertThat(counter.applied()).as("the counter added +%d twice", Retry.AMOUNT).isEqualTo(2);
        assertThat(ledger.verdicts()).as("the ledger's answers: the first lost, the retry a duplicate").containsExactly("lost", "duplicate");
        assertThat(ledger.applied()).as("the ledger added it once").isEqualTo(1);
    }

    @Test
    @DisplayName("Judged against the wrong expectation (the counter deduplicating), the judge names the verdicts and the total that differ")
    void namesWhatDiffersWhenTheExpectationIsWrong() {
        List<String> differences = new ArrayList<>();
        LabCase.LedgerExpectation wrong = new LabCase.LedgerExpectation(List.of(Verdict.LOST, Verdict.DUPLICATE), Retry.AMOUNT);

        Evidence.LedgerOutcome counter = LedgerJudge.judge(outcome, "fenced-counter", wrong, differences);

        assertThat(counter.asExpected()).as("a counter that applied the retry does not meet a deduplicating expectation").isFalse();
        assertThat(differences).as("the judge says what B's request got and where the total ended").containsExactly(
                "fenced-counter: B's request B-1 got lost then accepted, expected lost then duplicate",
                "fenced-counter: ended with total 10 (B's +5 applied 2 times), expected 5");
    }
}
