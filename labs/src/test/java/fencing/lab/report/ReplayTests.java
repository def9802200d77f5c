package fencing.lab.report;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The replay's steps, computed from a timeline alone: each sink's state and what etcd says after each event. */
class ReplayTests {

    @Test
    @DisplayName("after the last event, each mode holds what its last verdict left, and etcd's key follows the acquisitions and the expiry")
    void stepsFollowTheVerdictsAndTheKey() {
        List<Replay.Step> steps = Replay.steps(repeat(timeline()));
        Replay.Step last = steps.get(steps.size() - 1);

        assertThat(steps).as("one step per event").hasSize(timeline().size());
        assertThat(last.sinks().get("fenced")).as("the fenced mode after B's accepted and A's rejected write")
                .isEqualTo(new Replay.Sink("B-current", 9L, "rejected A (token 5)"));
        assertThat(last.sinks().get("plain")).as("the plain mode after A's late write").isEqualTo(new Replay.Sink("A-late", 0L, "accepted A (token 5)"));
        assertThat(steps.get(1).etcdSays()).as("etcd after A's key was created").startsWith("the lock key is A's (token 5)");
        assertThat(steps.get(3).etcdSays()).as("etcd after A's key was deleted").startsWith("no lock key");
        assertThat(steps.get(3).believes()).as("A, frozen, still believes it holds the lock").isEqualTo("A believes it holds token 5 (frozen)");
        assertThat(steps.get(5).etcdSays()).as("etcd after B's key was created").startsWith("the lock key is B's (token 9)");
    }

    @Test
    @DisplayName("a timeline missing A's plain verdict replays to another state: the replay reads the verdicts, not the outcome")
    void aMissingVerdictChangesTheReplayedState() {
        List<Evidence.Event> cut = new ArrayList<>(timeline());
        cut.removeIf(e -> e.kind() == EventKind.VERDICT && "plain".equals(e.about().mode()) && "A".equals(e.about().from()));
        List<Replay.Step> steps = Replay.steps(repeat(cut));

        assertThat(steps.get(steps.size() - 1).sinks().get("plain").value()).as("the plain mode without A's verdict on it").isEqualTo("B-current");
    }

    private static List<Evidence.Event> timeline() {
        return List.of(event(Lane.A, EventKind.ACQUIRED, 0, 5L, null, null, null, null, null),
                event(Lane.ETCD, EventKind.KEY_CREATED, 0, 5L, null, null, null, null, null),
                event(Lane.A, EventKind.FROZEN, 100, null, null, null, null, null, null),
                event(Lane.ETCD, EventKind.KEY_DELETED, 2_100, null, null, null, null, null, null),
                event(Lane.B, EventKind.ACQUIRED, 2_110, 9L, null, null, null, null, null),
                event(Lane.ETCD, EventKind.KEY_CREATED, 2_110, 9L, null, null, null, null, null),
                event(Lane.SINK, EventKind.VERDICT, 2_120, 9L, "plain", "accepted", "B-current", 0L, "B"),
                event(Lane.SINK, EventKind.VERDICT, 2_121, 9L, "fenced", "accepted", "B-current", 9L, "B"),
                event(Lane.A, EventKind.RESUMED, 2_130, null, null, null, null, null, null),
                event(Lane.SINK, EventKind.VERDICT, 2_140, 5L, "plain", "accepted", "A-late", 0L, "A"),
                event(Lane.SINK, EventKind.VERDICT, 2_141, 5L, "fenced", "rejected", "B-current", 9L, "A"));
    }

    private static Evidence.Event event(Lane lane, EventKind kind, long tMillis, Long token, String mode, String verdict, String value, Long mark,
                                        String from) {
        return new Evidence.Event(lane, kind, tMillis * 1000, tMillis, kind.name().toLowerCase(java.util.Locale.ROOT), "",
                new Evidence.About(token, mode, verdict, null, value, mark, from));
    }

    private static Evidence.Repeat repeat(List<Evidence.Event> events) {
        Map<String, Evidence.ModeOutcome> modes = new LinkedHashMap<>();
        modes.put("plain", null);
        modes.put("fenced", null);
        return new Evidence.Repeat(1, "late-write", new Evidence.Judgement(true, "", "", null, List.of(), List.of()),
                new Evidence.Lock("key", 2, null, null, null, null), null, modes, Map.of(), new Evidence.Trace(0, 0, events, List.of(), Map.of()));
    }
}
