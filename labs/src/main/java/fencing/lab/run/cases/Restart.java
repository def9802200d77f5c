package fencing.lab.run.cases;

import fencing.lab.run.Step;
import fencing.lab.run.StudyCase;
import fencing.lab.run.cases.OwnerSteps.LateWriteA;
import fencing.lab.run.cases.OwnerSteps.WriteB;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The sink process is killed after B's write and restarted before A's: the mark is durable. */
final class Restart implements StudyCase {

    @Override
    public String name() {
        return "restart";
    }

    @Override
    public String title() {
        return "The sink restarts between B's write and A's";
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
        return "After B's write the sink server was killed with SIGKILL (no shutdown, no flush on the way out) and started again"
                + " over the same files. The fenced sink's high-water mark is a column in SQLite, committed with B's value, so"
                + " the restarted sink still knew B's token and rejected A. A mark kept in memory would have been lost."
                + " The restarted current-owner sink rejected A as well: it asks etcd, which still says B holds the lock.";
    }

    @Override
    public List<Step> steps() {
        return List.of(
                new WriteB("plain", "fenced", "current-owner"),
                new RestartSink(),
                new LateWriteA("plain", "fenced", "current-owner"));
    }
}
