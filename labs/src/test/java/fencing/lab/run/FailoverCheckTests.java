package fencing.lab.run;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.lab.report.Evidence;
import fencing.lab.report.Evidence.Kind;
import fencing.lab.report.Evidence.Lane;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The failover case's own judgement of a timeline: the renewal and the key outliving its TTL must both be seen. */
class FailoverCheckTests {

    private static final long STOP = 1_000_000_000L;
    private static final long TTL_MILLIS = 2_000;

    @Test
    @DisplayName("a failover whose lease went up after the election and whose key went past the TTL passes the case's check")
    void renewedLeaseAndKeyPastTheTtlPass() {
        List<String> differences = check(List.of(fault(1_000), elected(1_400), renewed(1_500)), expiry(4_000));

        assertThat(differences).as("what the case found wrong with a timeline that shows the lesson").isEmpty();
    }

    @Test
    @DisplayName("a key gone within the TTL and a lease never seen renewed are each named as a difference")
    void keyWithinTheTtlAndNoRenewalAreFlagged() {
        List<String> differences = check(List.of(fault(1_000), elected(1_400)), expiry(1_900));

        assertThat(differences).as("what the case found wrong with a timeline where the failover extended nothing").hasSize(2)
                .anySatisfy(d -> assertThat(d).contains("not seen renewed after the leader's fault"))
                .anySatisfy(d -> assertThat(d).contains("1900.0 ms after SIGSTOP, within the TTL"));
    }

    @Test
    @DisplayName("a renewal seen before the leader's fault does not count, and a run without a fault says so")
    void renewalBeforeTheFaultAndMissingFaultAreFlagged() {
        assertThat(check(List.of(renewed(500), fault(1_000), elected(1_400)), expiry(4_000))).as("a renewal before the fault")
                .singleElement().asString().contains("not seen renewed after the leader's fault");
        assertThat(check(List.of(renewed(1_500)), expiry(4_000))).as("no fault recorded").singleElement().asString()
                .contains("no leader fault followed by an election");
    }

    private static List<String> check(List<Evidence.Event> events, Evidence.Expiry expiry) {
        List<String> differences = new ArrayList<>();
        new Failover().check(new Outcome(null, null, List.of(), expiry, events), differences);
        return differences;
    }

    private static Evidence.Event fault(long afterStopMillis) {
        return event(Kind.LEADER_FAULT, afterStopMillis, "leader member-1 killed");
    }

    private static Evidence.Event elected(long afterStopMillis) {
        return event(Kind.LEADER_ELECTED, afterStopMillis, "member-2 leads (term 3)");
    }

    private static Evidence.Event renewed(long afterStopMillis) {
        return event(Kind.LEASE_RENEWED, afterStopMillis, "A's lease renewed: 0 s → 2 s left");
    }

    private static Evidence.Event event(Kind kind, long afterStopMillis, String label) {
        return new Evidence.Event(Lane.ETCD, kind, STOP + afterStopMillis * 1000, afterStopMillis, label, "", null, null, null, null);
    }

    private static Evidence.Expiry expiry(long afterStopMillis) {
        return new Evidence.Expiry("poll", STOP, STOP - 100_000, STOP + afterStopMillis * 1000, afterStopMillis, afterStopMillis - TTL_MILLIS,
                null, 1L, null, (double) afterStopMillis);
    }
}
