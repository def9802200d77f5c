package fencing.lab.run.cases;

import static fencing.lab.sink.Mode.CURRENT_OWNER;
import static fencing.lab.sink.Mode.FENCED;
import static fencing.lab.sink.Mode.PLAIN;

import fencing.lab.run.LabCase;
import fencing.lab.run.Outcome;
import fencing.lab.run.Step;
import fencing.lab.run.cases.OwnerSteps.WorkDoneA;
import fencing.lab.run.cases.OwnerSteps.WriteB;
import fencing.lab.sink.Mode;
import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A holder cut off by the network: A, never frozen, reaches etcd only through a loopback bridge the run cuts, and the sink
 * directly; its keepalives go unanswered, etcd expires its lease, B takes the lock and writes, and A writes when its work is done.
 */
final class Partition implements LabCase {

    @Override
    public String name() {
        return "partition";
    }

    @Override
    public String title() {
        return "A holder cut off from etcd";
    }

    @Override
    public boolean cutsAFromEtcd() {
        return true;
    }

    @Override
    public Map<Mode, ModeExpectation> expected() {
        return LateWrite.lateWriteAfterB();
    }

    @Override
    public String explanation() {
        return "A was never frozen. The run cut its path to etcd and left its path to the sink open, as a network partition"
                + " can: A ran on, and its keepalives went unanswered, so etcd expired its lease and deleted the key, and B"
                + " took the lock with a larger token and wrote B-current. A's client saw no error, only silence, and A, busy"
                + " with its work, did not ask. When its work was done, A wrote A-late with its old"
                + " token. The plain sink stored it: B's write is lost. The fenced sink had seen B's larger token and rejected"
                + " A; the current-owner sink, which reaches etcd on a path of its own, asked and rejected A too. Nothing"
                + " paused A: a holder that cannot reach the lock service cannot learn that it lost the lock in time, and the"
                + " resource, which sees every write, is what keeps the order.";
    }

    @Override
    public List<Step> steps() {
        return List.of(
                new WriteB(PLAIN, FENCED, CURRENT_OWNER),
                new WorkDoneA(PLAIN, FENCED, CURRENT_OWNER));
    }

    @Override
    public void check(Outcome outcome, List<String> differences) {
        if (outcome.events().stream().anyMatch(e -> e.kind() == EventKind.FROZEN || e.kind() == EventKind.RESUMED)) {
            differences.add("A was frozen or resumed: in this case only its path to etcd is cut, and A runs on");
        }
        if (outcome.events().stream().noneMatch(e -> e.lane() == Evidence.Lane.A && e.kind() == EventKind.CUT_OFF)) {
            differences.add("A's path to etcd was never cut");
        }
    }

    @Override
    public void notes(Outcome outcome, List<String> notes) {
        // When jetcd gives up depends on its own timer against the last answer, so it supports the story and decides nothing.
        Evidence.Event gaveUp = outcome.events().stream().filter(e -> e.lane() == Evidence.Lane.A && e.kind() == EventKind.KEEPALIVE_ENDED)
                .findFirst().orElse(null);
        notes.add(gaveUp == null ? "jetcd had not yet given up on A's lease when A wrote: A's client still took the lease for alive"
                : String.format(Locale.ROOT, "jetcd stopped keeping A's lease alive at %.0f ms; A, at work, did not ask",
                        gaveUp.tMillis()));
    }
}
