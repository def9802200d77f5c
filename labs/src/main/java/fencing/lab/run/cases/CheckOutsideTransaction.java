package fencing.lab.run.cases;

import fencing.lab.sink.Mode;
import static fencing.lab.sink.Mode.PLAIN;
import static fencing.lab.sink.Mode.FENCED;
import static fencing.lab.run.Verdict.ACCEPTED;
import fencing.lab.run.Holder;
import fencing.lab.run.Outcome;
import fencing.lab.run.Step;
import fencing.lab.run.LabCase;
import fencing.lab.run.cases.HoldSteps.ArmHold;
import fencing.lab.run.cases.HoldSteps.AwaitHeld;
import fencing.lab.run.cases.HoldSteps.ReleaseHold;
import fencing.lab.run.cases.OwnerSteps.AwaitAWrote;
import fencing.lab.run.cases.OwnerSteps.ResumeAWriting;
import fencing.lab.run.cases.OwnerSteps.WriteB;
import fencing.lab.sink.Exchange;
import fencing.lab.sink.FencedVariant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The broken sink compares outside its transaction, and B commits in the gap. */
final class CheckOutsideTransaction implements LabCase {

    @Override
    public String name() {
        return "check-outside-transaction";
    }

    @Override
    public String title() {
        return "The comparison outside the transaction";
    }

    @Override
    public FencedVariant fencedSink() {
        return FencedVariant.CHECK_OUTSIDE_TRANSACTION;
    }

    @Override
    public Map<Mode, ModeExpectation> expected() {
        Map<Mode, ModeExpectation> expected = new LinkedHashMap<>();
        expected.put(PLAIN, new ModeExpectation(ACCEPTED, "A-late"));
        expected.put(FENCED, new ModeExpectation(ACCEPTED, "A-late"));
        return expected;
    }

    @Override
    public ExpectedMark expectedMark() {
        return new ExpectedMark(Holder.A, "A's token, set over B's by the broken sink");
    }

    @Override
    public String explanation() {
        return "The fenced mode ran CheckOutsideTransactionSink, which reads the mark and compares before opening its"
                + " transaction. A's late write passed the check (the mark was still below A's token), then was held between"
                + " check and write; meanwhile B wrote B-current with its larger token and committed. When A's write went on,"
                + " the sink stored A-late over B's value and even set the mark back to A's token. With the comparison inside"
                + " one BEGIN IMMEDIATE transaction, as in FencedSink, B would have waited for A's transaction and then won."
                + " (The current-owner mode is left out here: the race on show is the broken fenced sink's alone.)";
    }

    @Override
    public String contractNote() {
        return "A's late write was accepted although B's larger token had committed first: the broken sink compared"
                + " against a mark it read outside its transaction. This breaks the contract; it is the defect on show.";
    }

    @Override
    public List<Step> steps() {
        return List.of(
                new WriteB(PLAIN),
                new ArmHold(),
                new ResumeAWriting(PLAIN, FENCED),
                new AwaitHeld(),
                new WriteB(FENCED),
                new ReleaseHold(),
                new AwaitAWrote());
    }

    @Override
    public void check(Outcome outcome, List<String> differences) {
        Exchange bFenced = outcome.write(Holder.B, FENCED);
        Exchange aFenced = outcome.write(Holder.A, FENCED);
        if (bFenced == null || aFenced == null || bFenced.decidedAtMicros() > aFenced.decidedAtMicros()) {
            differences.add("fenced: B's write did not commit before A's held write was stored, so the race was not shown");
        }
    }
}
