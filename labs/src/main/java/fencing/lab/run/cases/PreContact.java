package fencing.lab.run.cases;

import fencing.lab.sink.Mode;
import static fencing.lab.sink.Mode.PLAIN;
import static fencing.lab.sink.Mode.FENCED;
import static fencing.lab.sink.Mode.CURRENT_OWNER;
import static fencing.lab.run.Verdict.ACCEPTED;
import static fencing.lab.run.Verdict.REJECTED;
import fencing.lab.run.Step;
import fencing.lab.run.LabCase;
import fencing.lab.run.cases.OwnerSteps.LateWriteA;
import fencing.lab.run.cases.OwnerSteps.Say;
import fencing.lab.run.cases.OwnerSteps.WriteB;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The extension: A writes after its lease is gone but before B has reached the sink. */
final class PreContact implements LabCase {

    @Override
    public String name() {
        return "pre-contact";
    }

    @Override
    public String title() {
        return "A writes before B reaches the sink";
    }

    @Override
    public Map<Mode, ModeExpectation> expected() {
        Map<Mode, ModeExpectation> expected = new LinkedHashMap<>();
        expected.put(PLAIN, new ModeExpectation(ACCEPTED, "B-current"));
        expected.put(FENCED, new ModeExpectation(ACCEPTED, "B-current"));
        expected.put(CURRENT_OWNER, new ModeExpectation(REJECTED, "B-current"));
        return expected;
    }

    @Override
    public String explanation() {
        return "A's lease expired and B took the lock, but A wrote before B had contacted the sink. The fenced sink had not yet"
                + " seen any token larger than A's, so it accepted A: its high-water mark only rejects generations older than"
                + " one it has seen. That is the narrower contract the experiment demonstrates, not a violation of it: no"
                + " write was accepted after a newer one, and B's write, arriving later with a larger token, still won."
                + " Mutual exclusion in time was lost (A wrote while B held the lock); ordering at the sink was not."
                + " The current-owner sink does not wait to see B's token: it asked etcd, inside its transaction, whether A's token is"
                + " the lock key's create_revision now. B's key was there, so it rejected A. That costs a linearizable read per write,"
                + " and puts the lock service on the write path.";
    }

    @Override
    public String contractNote() {
        return "A's late write was accepted under the narrower contract: a high-water mark only rejects generations"
                + " older than one the sink has seen, and when A wrote, the sink had not yet seen B's larger token."
                + " The current-owner sink, which asks the lock service, rejected it.";
    }

    @Override
    public List<Step> steps() {
        return List.of(
                new Say("B holds the lock but has not contacted the sink yet"),
                new LateWriteA(PLAIN, FENCED, CURRENT_OWNER),
                new WriteB(PLAIN, FENCED, CURRENT_OWNER));
    }
}
