package fencing.lab.run.cases;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.lab.run.Outcome;

import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The failover case's own judgement of a timeline: it rests on the election and the key outliving its TTL, which a run
 * cannot miss; the sampled TTL rise, which a sampler can miss, is a note.
 */
class FailoverCheckTests {

    private static final long STOP = 1_000_000_000L;
    private static final long TTL_MILLIS = 2_000;

    @Test
    @DisplayName("a failover whose key went past the TTL and after the election passes, with the renewal noted as support")
    void keyPastTheTtlAfterTheElectionPasses() {
        List<Evidence.Event> events = List.of(fault(1_000), elected(1_400), renewed(1_500));

        assertThat(check(events, expiry(4_000))).as("what the case found wrong with a timeline that shows the lesson").isEmpty();
        assertThat(notes(events)).as("the notes of a timeline where the sampler saw the TTL rise").singleElement().asString()
                .contains("seen going back up");
    }

    @Test
    @DisplayName("a renewal the sampler missed does not fail a run whose key outlived its TTL: it is only noted")
    void missedRenewalIsANoteNotADifference() {
        List<Evidence.Event> events = List.of(fault(1_000), elected(1_400));

        assertThat(check(events, expiry(3_830))).as("differences of a run whose key was gone 3.83 s after SIGSTOP with a 2 s TTL,"
                + " though no TTL rise was sampled").isEmpty();
        assertThat(notes(events)).as("the notes of that run").singleElement().asString().contains("did not see A's time-to-live go back up");
    }

    @Test
    @DisplayName("a key gone within the TTL, or before the election, is named as a difference")
    void keyWithinTheTtlOrBeforeTheElectionIsFlagged() {
        assertThat(check(List.of(fault(1_000), elected(1_400), renewed(1_500)), expiry(1_900)))
                .as("a key gone 1.9 s after SIGSTOP with a 2 s TTL").singleElement().asString().contains("1900.0 ms after SIGSTOP, within the TTL");
        assertThat(check(List.of(fault(1_000), elected(2_600)), expiry(2_500)))
                .as("a key gone at 2.5 s, before the election at 2.6 s").singleElement().asString().contains("before the new leader was elected");
    }

    @Test
    @DisplayName("a run without a recorded fault and election says so")
    void missingFaultIsFlagged() {
        assertThat(check(List.of(renewed(1_500)), expiry(4_000))).as("no fault recorded").singleElement().asString()
                .contains("no leader fault followed by an election");
        assertThat(notes(List.of(renewed(500), fault(1_000)))).as("a renewal seen before the fault supports nothing").singleElement()
                .asString().contains("did not see");
    }

    private static List<String> check(List<Evidence.Event> events, Evidence.Expiry expiry) {
        List<String> differences = new ArrayList<>();
        new Failover().check(new Outcome(null, null, List.of(), expiry, events), differences);
        return differences;
    }

    private static List<String> notes(List<Evidence.Event> events) {
        List<String> notes = new ArrayList<>();
        new Failover().notes(new Outcome(null, null, List.of(), null, events), notes);
        return notes;
    }

    private static Evidence.Event fault(long afterStopMillis) {
        return event(EventKind.LEADER_FAULT, afterStopMillis, "leader member-1 killed");
    }

    private static Evidence.Event elected(long afterStopMillis) {
        return event(EventKind.LEADER_ELECTED, afterStopMillis, "member-2 leads (term 3)");
    }

    private static Evidence.Event renewed(long afterStopMillis) {
        return event(EventKind.LEASE_RENEWED, afterStopMillis, "A's lease renewed: 0 s → 2 s left");
    }

    private static Evidence.Event event(EventKind kind, long afterStopMillis, String label) {
        return new Evidence.Event(Lane.ETCD, kind, STOP + afterStopMillis * 1000, afterStopMillis, label, "", Evidence.About.NOTHING);
    }

    private static Evidence.Expiry expiry(long afterStopMillis) {
        return new Evidence.Expiry("poll", STOP, STOP - 100_000, STOP + afterStopMillis * 1000, afterStopMillis, afterStopMillis - TTL_MILLIS,
                null, 1L, null, (double) afterStopMillis);
    }
}
