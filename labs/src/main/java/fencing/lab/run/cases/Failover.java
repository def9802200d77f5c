package fencing.lab.run.cases;

import fencing.lab.sink.Mode;
import static fencing.lab.sink.Mode.PLAIN;
import static fencing.lab.sink.Mode.FENCED;
import static fencing.lab.run.Verdict.ACCEPTED;
import static fencing.lab.run.Verdict.REJECTED;
import fencing.lab.run.Outcome;
import fencing.lab.run.Step;
import fencing.lab.run.LabCase;
import fencing.lab.run.cases.OwnerSteps.LateWriteA;
import fencing.lab.run.cases.OwnerSteps.WriteB;
import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Leader failover: etcd's leader dies while A is frozen, the new leader renews A's lease, and A's key outlives its TTL.
 *
 * <p>A timeout cannot establish a remote process's state: only observing the key's absence is safe.
 */
final class Failover implements LabCase {

    private static final Mode[] MODES = {PLAIN, FENCED};

    @Override
    public String name() {
        return "failover";
    }

    @Override
    public String title() {
        return "etcd's leader fails while A is frozen";
    }

    @Override
    public boolean failsOverLeader() {
        return true;
    }

    @Override
    public Map<Mode, ModeExpectation> expected() {
        Map<Mode, ModeExpectation> expected = new LinkedHashMap<>();
        expected.put(PLAIN, new ModeExpectation(ACCEPTED, "A-late"));
        expected.put(FENCED, new ModeExpectation(REJECTED, "B-current"));
        return expected;
    }

    @Override
    public String explanation() {
        return "On a three-member etcd cluster, A took the lock and was frozen with SIGSTOP. Halfway through A's lease the"
                + " leader member was killed; the two others elected a new leader, and etcd's time-to-live for A's lease went"
                + " back up although A sent no keepalive: a new leader cannot know when a lease was last kept alive, so it"
                + " gives every lease its TTL again. A's key was therefore seen gone well after one TTL from the freeze. A"
                + " timeout cannot establish a remote process's state: whoever had waited one TTL and assumed the lock free"
                + " would have overlapped with A. B took the lock only once the key was seen gone, with a larger token; A,"
                + " resumed, wrote with its old token: the plain sink stored it, the fenced sink rejected it.";
    }

    @Override
    public List<Step> steps() {
        return List.of(
                new WriteB(MODES),
                new LateWriteA(MODES));
    }

    /**
     * Judges on what the run cannot miss: the leader's fault and the election are recorded by the runner itself, and the
     * key's end is seen by a watch and a poll; its lifetime after the freeze must exceed the TTL, and end after the election.
     */
    @Override
    public void check(Outcome outcome, List<String> differences) {
        Evidence.Event fault = outcome.event(Lane.ETCD, EventKind.LEADER_FAULT);
        Evidence.Event elected = outcome.event(Lane.ETCD, EventKind.LEADER_ELECTED);
        Evidence.Expiry expiry = outcome.expiry();
        if (fault == null || elected == null || elected.atMicros() < fault.atMicros()) {
            differences.add("etcd: no leader fault followed by an election was recorded while A was frozen");
            return;
        }
        if (expiry == null) {
            differences.add("etcd: A's key was not seen gone");
            return;
        }
        if (expiry.waitMinusTtlMillis() <= 0) {
            differences.add("etcd: A's key was seen gone " + expiry.waitAfterStopMillis() + " ms after SIGSTOP, within the TTL:"
                    + " the new leader did not keep the lease alive past it");
        }
        if (expiry.observedAtMicros() < elected.atMicros()) {
            differences.add("etcd: A's key was seen gone before the new leader was elected, so the failover could not extend the lease");
        }
    }

    /** The sampled TTL going back up shows the renewal, but etcd counts it in whole seconds, so a sampler can miss it. */
    @Override
    public void notes(Outcome outcome, List<String> notes) {
        Evidence.Event fault = outcome.event(Lane.ETCD, EventKind.LEADER_FAULT);
        Evidence.Event renewed = outcome.event(Lane.ETCD, EventKind.LEASE_RENEWED);
        if (fault != null && renewed != null && renewed.atMicros() >= fault.atMicros()) {
            notes.add("supporting: etcd's time-to-live for A's lease was seen going back up " + renewed.tMillis() + " ms into the repeat, after"
                    + " the leader's fault (" + renewed.label() + ")");
        } else {
            notes.add("supporting: the sampler did not see A's time-to-live go back up (etcd counts it in whole seconds, so a rise can fall"
                    + " between two samples); the key's lifetime past the TTL is what shows the renewal");
        }
    }
}
