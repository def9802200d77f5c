package fencing.lab.run.cases;

import fencing.lab.sink.Mode;
import static fencing.lab.run.Verdict.ACCEPTED;
import static fencing.lab.run.Verdict.LOST;
import static fencing.lab.run.Verdict.DUPLICATE;
import fencing.lab.run.Step;
import fencing.lab.run.LabCase;
import fencing.lab.run.cases.RequestSteps.AddB;
import fencing.lab.run.cases.RequestSteps.LoseFirstResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** B's request to a ledger is applied, its answer is lost, and B retries it with the same id. */
public final class Retry implements LabCase {

    public static final String REQUEST_ID = "B-1";
    public static final long AMOUNT = 5;

    @Override
    public boolean needsExtension() {
        return true;
    }

    @Override
    public String name() {
        return "retry";
    }

    @Override
    public String title() {
        return "A retried request after a lost answer";
    }

    @Override
    public Map<Mode, ModeExpectation> expected() {
        return Map.of();
    }

    @Override
    public Map<String, LedgerExpectation> expectedLedgers() {
        Map<String, LedgerExpectation> expected = new LinkedHashMap<>();
        expected.put("fenced-counter", new LedgerExpectation(List.of(LOST, ACCEPTED), 2 * AMOUNT));
        expected.put("idempotent", new LedgerExpectation(List.of(LOST, DUPLICATE), AMOUNT));
        return expected;
    }

    @Override
    public String explanation() {
        return "B, the current owner, sent request " + REQUEST_ID + " (+" + AMOUNT + ") to two ledgers. Each applied it, and the sink"
                + " server then closed the connection without answering, on purpose: B could not tell whether its request had taken"
                + " effect, so it sent it again with the same request id and the same token. The fenced counter checked the token"
                + " (equal to its mark, so not stale) and added the amount a second time: its total is " + 2 * AMOUNT + ". The"
                + " idempotent ledger found " + REQUEST_ID + " already recorded and answered duplicate, with the total still " + AMOUNT
                + ". A high-water mark accepts equal tokens, so fencing does not deduplicate an owner's repeated writes: generation"
                + " freshness and operation deduplication protect different invariants. A stays frozen and sends nothing in this case;"
                + " the sink modes are not used.";
    }

    @Override
    public List<Step> steps() {
        return List.of(
                new LoseFirstResponse(REQUEST_ID),
                new AddB(REQUEST_ID, AMOUNT, "fenced-counter", "idempotent"));
    }
}
