package fencing.lab.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A's lease timer on an injected clock: what it says is a function of its clock alone, however the machine's time went. */
class LeaseTimerTests {

    private static final Duration TTL = Duration.ofSeconds(2);

    private final AtomicLong machine = new AtomicLong(1_000_000_000L);

    @Test
    @DisplayName("on a clock at half speed, a 2 s timer still says valid 3 s of machine time later, with 0.5 s left")
    void aSlowClockSaysTheLeaseIsValidAfterItsTtl() {
        LeaseTimer timer = LeaseTimer.start(LeaseTimer.LocalClock.atRate(0.5, machine::get), TTL);
        machine.addAndGet(Duration.ofSeconds(3).toNanos());

        LeaseTimer.Reading reading = timer.read();

        assertThat(reading.elapsed()).as("the slow clock counted half the machine's 3 s").isEqualTo(Duration.ofMillis(1500));
        assertThat(reading.left()).as("what the timer says is left of the 2 s TTL").isEqualTo(Duration.ofMillis(500));
        assertThat(reading.saysValid()).as("the timer says valid past the TTL").isTrue();
    }

    @Test
    @DisplayName("on a clock that keeps the machine's time, the same timer says spent once the TTL has passed")
    void aClockThatKeepsTimeSaysTheLeaseIsSpentAfterItsTtl() {
        LeaseTimer timer = LeaseTimer.start(LeaseTimer.LocalClock.atRate(1, machine::get), TTL);
        machine.addAndGet(Duration.ofMillis(1999).toNanos());
        assertThat(timer.read().saysValid()).as("1 ms before the TTL ends").isTrue();

        machine.addAndGet(Duration.ofMillis(1).toNanos());

        assertThat(timer.read().saysValid()).as("at the TTL's end, nothing is left").isFalse();
        assertThat(timer.read().left()).as("what is left at the TTL's end").isEqualTo(Duration.ZERO);
    }

    @Test
    @DisplayName("a clock's rate must be a positive, finite number")
    void aClockRateMustBePositiveAndFinite() {
        for (double rate : new double[] {0, -0.5, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> LeaseTimer.LocalClock.atRate(rate, machine::get)).as("a clock at rate %s", rate)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
        }
    }
}
