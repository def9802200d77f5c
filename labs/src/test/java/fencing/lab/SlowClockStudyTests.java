package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The slow-clock case, run for real: A, never frozen, trusts a timer on a slow clock of its own and writes after its lease is gone. */
@Tag("etcd")
@Timeout(120)
class SlowClockStudyTests {

    @Test
    @DisplayName("slow-clock: A's timer at half speed says valid after etcd expired the lease and B wrote; fenced rejects the write it allowed")
    void aSlowClocksTimerLetsALateWriteThroughThatFencingRejects(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "slow-clock");
        Evidence.Repeat repeat = run.repeat();
        Evidence.Clocks clocks = repeat.lock().clocks();
        long ttlMillis = repeat.lock().ttlSeconds() * 1000;

        assertThat(run.exitCode).as("the slow-clock repeat ends as expected; the study said:%n%s%s", run.out, run.err).isZero();
        assertThat(repeat.trace().events()).as("A is never frozen nor resumed in this case")
                .noneMatch(e -> e.kind() == EventKind.FROZEN || e.kind() == EventKind.RESUMED);
        assertThat(clocks).as("the evidence holds both clocks at A's check").isNotNull();
        assertThat(clocks.clockRate()).as("A's clock runs at the default rate").isEqualTo(0.5);
        assertThat(clocks.etcdTtlLeftSeconds()).as("etcd had no lease of A's when A checked its timer").isEqualTo(-1);
        assertThat(clocks.realMillis()).as("on the machine's clock, more than the TTL had passed since A asked").isGreaterThan(ttlMillis);
        assertThat(clocks.aClockMillis()).as("A's clock counted less than the TTL").isLessThan(ttlMillis);
        assertThat(clocks.aTimerSaysValid()).as("so A's timer said the lease was valid").isTrue();
        assertThat(run.write("A", "fenced").sentAtMicros()).as("A wrote after B's write was answered")
                .isGreaterThan(run.write("B", "fenced").receivedAtMicros());
        assertThat(run.write("A", "fenced").verdict()).as("the fenced sink rejects the write A's timer allowed").isEqualTo("rejected");
        assertThat(run.write("A", "current-owner").verdict()).as("etcd says B holds the lock").isEqualTo("rejected");
        assertThat(repeat.modes().get("plain").finalValue()).as("the plain sink stores A's late write over B's").isEqualTo("A-late");
        assertThat(repeat.trace().events()).as("the timeline records A's timer reading and etcd's view of A's lease")
                .anyMatch(e -> e.lane() == Evidence.Lane.A && e.kind() == EventKind.TIMER_CHECKED)
                .anyMatch(e -> e.lane() == Evidence.Lane.ETCD && e.kind() == EventKind.LEASE_NOT_FOUND);
        assertThat(run.file("report.md")).as("report.md shows both clocks side by side").contains("A's own clock (0.5× the machine's)")
                .contains("etcd (the machine's clock)").contains("no such lease");
        assertThat(run.file("report.html")).as("report.html shows both clocks, and A's lease by its own clock on the timeline")
                .contains("<table class=\"clocks\">").contains("A's lease by A's own clock");
        assertThat(run.out).as("the console shows both clocks").contains("two clocks at A's check");
    }

    @Test
    @DisplayName("slow-clock at --clock-rate 1: A's timer says spent, A does not write, and the study names why the case showed nothing")
    void aClockThatKeepsTimeKeepsAOutAndTheStudySaysSo(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "slow-clock", "--clock-rate", "1");
        Evidence.Repeat repeat = run.repeat();

        assertThat(run.exitCode).as("the case expects the hazard, and a clock that keeps time does not show it").isEqualTo(1);
        assertThat(repeat.lock().clocks().aTimerSaysValid()).as("A's timer, started before A asked, ends no later than etcd's lease").isFalse();
        assertThat(repeat.modes().get("fenced").aLateVerdict()).as("A sent nothing").isEqualTo("not sent");
        assertThat(repeat.judgement().differences()).as("the differences name A's timer").anySatisfy(d -> assertThat(d).contains("A's own timer said its lease was spent"));
    }

    @Test
    @DisplayName("--clock-rate takes a rate above 0 and at most 10, and only with slow-clock or all")
    void theClockRateIsCheckedBeforeAnythingRuns(@TempDir Path dir) {
        assertThat(StudyRun.of(dir, "--case", "slow-clock", "--clock-rate", "0").exitCode).as("a clock that stands still").isEqualTo(2);
        assertThat(StudyRun.of(dir, "--case", "slow-clock", "--clock-rate", "11").exitCode).as("a clock past the bound").isEqualTo(2);
        assertThat(StudyRun.of(dir, "--clock-rate", "0.5").exitCode).as("--clock-rate with the late-write case").isEqualTo(2);
    }
}
