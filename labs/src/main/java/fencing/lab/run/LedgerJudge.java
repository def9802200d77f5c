package fencing.lab.run;

import fencing.support.evidence.Evidence;
import fencing.lab.sink.Exchange;
import java.util.ArrayList;
import java.util.List;

/** Judges one ledger of a repeat: B's attempts of its request, and the total they left. */
final class LedgerJudge {

    private LedgerJudge() {
    }

    static Evidence.LedgerOutcome judge(Outcome outcome, String ledger, StudyCase.LedgerExpectation expected, List<String> differences) {
        List<Exchange> attempts = outcome.calls().stream().filter(c -> c.from().equals("B") && c.isLedgerAdd() && c.mode().equals(ledger)).toList();
        List<String> verdicts = new ArrayList<>();
        for (Exchange attempt : attempts) {
            verdicts.add(attempt.isLost() ? "lost" : attempt.verdict());
        }
        Exchange finalRead = outcome.finalRead(ledger);
        long total = finalRead.response().path("total").asLong();
        long mark = finalRead.response().path("highWaterMark").asLong();
        String requestId = attempts.isEmpty() ? null : attempts.get(0).request().path("requestId").asText();
        long amount = attempts.isEmpty() ? 0 : attempts.get(0).request().path("amount").asLong();
        long applied = amount == 0 ? 0 : total / amount;
        boolean asExpected = true;
        if (!verdicts.equals(expected.verdicts())) {
            differences.add(ledger + ": B's request " + requestId + " got " + String.join(" then ", verdicts) + ", expected "
                    + String.join(" then ", expected.verdicts()));
            asExpected = false;
        }
        if (total != expected.finalTotal()) {
            differences.add(ledger + ": ended with total " + total + " (B's +" + amount + " applied " + applied + " times), expected "
                    + expected.finalTotal());
            asExpected = false;
        }
        return new Evidence.LedgerOutcome(ledger, finalRead.response().path("class").asText(), requestId, amount, verdicts, expected.verdicts(),
                total, expected.finalTotal(), applied, mark, asExpected);
    }
}
