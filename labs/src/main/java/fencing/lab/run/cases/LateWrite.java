package fencing.lab.run.cases;

import fencing.lab.run.Step;
import fencing.lab.run.StudyCase;
import fencing.lab.run.cases.OwnerSteps.LateWriteA;
import fencing.lab.run.cases.OwnerSteps.WriteB;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The worker that came back: A's late write after B's, with A's old token. */
final class LateWrite implements StudyCase {

    @Override
    public String name() {
        return "late-write";
    }

    @Override
    public String title() {
        return "The worker that came back";
    }

    @Override
    public Map<String, ModeExpectation> expected() {
        Map<String, ModeExpectation> expected = new LinkedHashMap<>();
        expected.put("plain", new ModeExpectation("accepted", "A-late"));
        expected.put("fenced", new ModeExpectation("rejected", "B-current"));
        expected.put("current-owner", new ModeExpectation("rejected", "B-current"));
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
                new WriteB("plain", "fenced", "current-owner"),
                new LateWriteA("plain", "fenced", "current-owner"));
    }
}
