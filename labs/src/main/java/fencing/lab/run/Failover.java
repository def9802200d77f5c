package fencing.lab.run;

import fencing.lab.report.Evidence;
import fencing.lab.report.Evidence.Kind;
import fencing.lab.report.Evidence.Lane;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Leader failover: etcd's leader dies while A is frozen, the new leader renews A's lease, and A's key outlives its TTL.
 *
 * <p>A timeout cannot establish a remote process's state: only observing the key's absence is safe.
 */
final class Failover implements StudyCase {

    private static final String[] MODES = {"plain", "fenced"};

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
    public Map<String, ModeExpectation> expected() {
        Map<String, ModeExpectation> expected = new LinkedHashMap<>();
        expected.put("plain", new ModeExpectation("accepted", "A-late"));
        expected.put("fenced", new ModeExpectation("rejected", "B-current"));
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
    public void play(Scene scene) {
        scene.writeB(MODES);
        scene.lateWriteA(MODES);
    }

    @Override
    public void check(Outcome outcome, List<String> differences) {
        Evidence.Event fault = outcome.event(Lane.ETCD, Kind.LEADER_FAULT);
        Evidence.Event elected = outcome.event(Lane.ETCD, Kind.LEADER_ELECTED);
        Evidence.Event renewed = outcome.event(Lane.ETCD, Kind.LEASE_RENEWED);
        Evidence.Expiry expiry = outcome.expiry();
        if (fault == null || elected == null || elected.atMicros() < fault.atMicros()) {
            differences.add("etcd: no leader fault followed by an election was recorded while A was frozen");
            return;
        }
        if (renewed == null || renewed.atMicros() < fault.atMicros()) {
            differences.add("etcd: A's lease was not seen renewed after the leader's fault: its time-to-live never went up");
        }
        if (expiry == null) {
            differences.add("etcd: A's key was not seen gone");
            return;
        }
        if (expiry.waitMinusTtlMillis() <= 0) {
            differences.add("etcd: A's key was seen gone " + expiry.waitAfterStopMillis() + " ms after SIGSTOP, within the TTL:"
                    + " the new leader did not keep the lease alive past it");
        }
        if (expiry.observedAtMicros() < fault.atMicros()) {
            differences.add("etcd: A's key was seen gone before the leader's fault, so the fault could not extend the lease");
        }
    }
}
