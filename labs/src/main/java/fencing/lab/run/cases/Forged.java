package fencing.lab.run.cases;

import fencing.lab.sink.Mode;
import static fencing.lab.sink.Mode.PLAIN;
import static fencing.lab.sink.Mode.FENCED;
import static fencing.lab.sink.Mode.CURRENT_OWNER;
import static fencing.lab.run.Verdict.ACCEPTED;
import static fencing.lab.run.Verdict.REJECTED;
import static fencing.lab.run.Verdict.NOT_SENT;
import fencing.lab.run.Holder;
import fencing.lab.run.Step;
import fencing.lab.run.LabCase;
import fencing.lab.run.cases.OwnerSteps.Say;
import fencing.lab.run.cases.OwnerSteps.WriteB;
import fencing.lab.run.cases.RequestSteps.ForgedWrite;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A process that never held the lock sends a made-up token far above any revision: a denial of service against a high-water mark. */
final class Forged implements LabCase {

    @Override
    public boolean needsExtension() {
        return true;
    }

    @Override
    public String name() {
        return "forged";
    }

    @Override
    public String title() {
        return "A forged token locks the fenced sink out";
    }

    @Override
    public boolean forgesToken() {
        return true;
    }

    @Override
    public Map<Mode, ModeExpectation> expected() {
        Map<Mode, ModeExpectation> expected = new LinkedHashMap<>();
        expected.put(PLAIN, new ModeExpectation(NOT_SENT, "B-current", ACCEPTED, ACCEPTED));
        expected.put(FENCED, new ModeExpectation(NOT_SENT, RequestSteps.FORGED, REJECTED, ACCEPTED));
        expected.put(CURRENT_OWNER, new ModeExpectation(NOT_SENT, "B-current", ACCEPTED, REJECTED));
        return expected;
    }

    @Override
    public ExpectedMark expectedMark() {
        return new ExpectedMark(Holder.C, "C's forged token: from now on the fenced sink rejects every real owner");
    }

    @Override
    public String explanation() {
        return "C, a separate process that never took the lock, wrote C-forged with the token " + FORGED_TOKEN + ", which it made up."
                + " The plain sink stored it, as it stores anything. The fenced sink stored it too: a high-water mark only compares"
                + " tokens, and this one was the largest it had seen, so its mark jumped to " + FORGED_TOKEN + ". B, the real owner,"
                + " then wrote with its real token and the fenced sink rejected it: locked out, and so will be every owner until etcd's"
                + " revision passes " + FORGED_TOKEN + ". Fencing is only as good as the tokens: it assumes nobody can invent one."
                + " The current-owner sink asked etcd, inside its transaction, whether the token is the lock key's create_revision"
                + " now; C's is not, so it rejected C, and accepted B. A stays frozen and writes nothing in this case.";
    }

    @Override
    public String contractNote() {
        return "The fenced sink accepted C's made-up token and then rejected the real owner: a high-water mark trusts any token"
                + " it is given, so an invented one is a denial of service. Only a check with the lock service (current-owner) tells.";
    }

    @Override
    public List<Step> steps() {
        return List.of(
                new Say("C never took the lock: it makes up the token " + FORGED_TOKEN + " and writes with it"),
                new ForgedWrite(PLAIN, FENCED, CURRENT_OWNER),
                new WriteB(PLAIN, FENCED, CURRENT_OWNER));
    }
}
