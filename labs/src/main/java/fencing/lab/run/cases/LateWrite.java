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
import fencing.lab.run.cases.OwnerSteps.WriteB;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The worker that came back: A's late write after B's, with A's old token. */
final class LateWrite implements LabCase {

    @Override
    public String name() {
        return "late-write";
    }

    @Override
    public String title() {
        return "The worker that came back";
    }

    @Override
    public Map<Mode, ModeExpectation> expected() {
        return lateWriteAfterB();
    }

    /** What a case expects where A writes late after B: plain stores A's write over B's, fenced and current-owner reject it. */
    static Map<Mode, ModeExpectation> lateWriteAfterB() {
        Map<Mode, ModeExpectation> expected = new LinkedHashMap<>();
        expected.put(PLAIN, new ModeExpectation(ACCEPTED, OwnerSteps.LATE));
        expected.put(FENCED, new ModeExpectation(REJECTED, OwnerSteps.CURRENT));
        expected.put(CURRENT_OWNER, new ModeExpectation(REJECTED, OwnerSteps.CURRENT));
        return expected;
    }

    @Override
    public String explanation() {
        return "A was frozen with SIGSTOP, so its keepalives stopped and etcd expired its lease. B then took the lock with a"
                + " larger token and wrote B-current. A, resumed, still believed it held the lock and wrote A-late with its old"
                + " token. The plain sink stored it: B's write is lost. The fenced sink had seen B's larger token, so it rejected A."
                + " The current-owner sink asked etcd, inside its transaction, who holds the lock now: B's key, created at B's"
                + " token, so it rejected A too.";
    }

    @Override
    public List<Step> steps() {
        return List.of(
                new WriteB(PLAIN, FENCED, CURRENT_OWNER),
                new LateWriteA(PLAIN, FENCED, CURRENT_OWNER));
    }
}
