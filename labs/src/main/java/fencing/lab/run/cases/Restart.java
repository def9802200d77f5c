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

/** The sink process is killed after B's write and restarted before A's: the mark is durable. */
final class Restart implements LabCase {

    @Override
    public String name() {
        return "restart";
    }

    @Override
    public String title() {
        return "The sink restarts between B's write and A's";
    }

    @Override
    public Map<Mode, ModeExpectation> expected() {
        Map<Mode, ModeExpectation> expected = new LinkedHashMap<>();
        expected.put(PLAIN, new ModeExpectation(ACCEPTED, "A-late"));
        expected.put(FENCED, new ModeExpectation(REJECTED, "B-current"));
        expected.put(CURRENT_OWNER, new ModeExpectation(REJECTED, "B-current"));
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
                new WriteB(PLAIN, FENCED, CURRENT_OWNER),
                new RestartSink(),
                new LateWriteA(PLAIN, FENCED, CURRENT_OWNER));
    }
}
