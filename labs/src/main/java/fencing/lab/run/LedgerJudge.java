package fencing.lab.run;

import fencing.support.evidence.Evidence;
import fencing.lab.sink.Exchange;
import fencing.support.evidence.SinkReply;
import fencing.support.evidence.SinkRequest;
import java.util.ArrayList;
import java.util.List;

/** Judges one ledger of a repeat: B's attempts of its request, and the total they left. */
final class LedgerJudge {

    private LedgerJudge() {
    }

    static Evidence.LedgerOutcome judge(Outcome outcome, String ledger, LabCase.LedgerExpectation expected, List<String> differences) {
        List<Exchange> attempts = outcome.calls().stream().filter(c -> c.from().equals("B") && c.isLedgerAdd() && ledger.equals(c.ledger())).toList();
        List<String> verdicts = new ArrayList<>();
        for (Exchange attempt : attempts) {
            verdicts.add(attempt.isLost() ? Verdict.LOST.text() : attempt.verdict());
        }
        List<String> expectedVerdicts = expected.verdicts().stream().map(Verdict::text).toList();
        SinkReply.LedgerState finalRead = outcome.finalRead(ledger).reply(SinkReply.LedgerState.class);
        long total = finalRead.total();
        long mark = finalRead.highWaterMark();
        SinkRequest.LedgerAdd request = !attempts.isEmpty() && attempts.get(0).request() instanceof SinkRequest.LedgerAdd add ? add : null;
        String requestId = request == null ? null : request.requestId();
        long amount = request == null ? 0 : request.amount();
        long applied = amount == 0 ? 0 : total / amount;
        boolean asExpected = true;
        if (!verdicts.equals(expectedVerdicts)) {
            differences.add(ledger + ": B's request " + requestId + " got " + String.join(" then ", verdicts) + ", expected "
                    + String.join(" then ", expectedVerdicts));
            asExpected = false;
        }
        if (total != expected.finalTotal()) {
            differences.add(ledger + ": ended with total " + total + " (B's +" + amount + " applied " + applied + " times), expected "
                    + expected.finalTotal());
            asExpected = false;
        }
        return new Evidence.LedgerOutcome(ledger, finalRead.implementation(), requestId, amount, verdicts, expectedVerdicts,
                total, expected.finalTotal(), applied, mark, asExpected);
    }
}
