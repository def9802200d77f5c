package fencing.lab.run.cases;

import static fencing.lab.sink.Mode.CURRENT_OWNER;
import static fencing.lab.sink.Mode.FENCED;
import static fencing.lab.sink.Mode.PLAIN;

import fencing.lab.run.LabCase;
import fencing.lab.run.Outcome;
import fencing.lab.run.Step;
import fencing.lab.run.cases.ClockSteps.TimedWriteA;
import fencing.lab.run.cases.OwnerSteps.WriteB;
import fencing.lab.sink.Mode;
import fencing.support.evidence.Evidence;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * A clock that runs slow: A, never frozen, holds a lease it does not renew and writes while its own timer says the lease
 * is valid; its clock runs at {@code clockRate} times the machine's, so the timer still says valid after etcd expired it.
 *
 * @param clockRate how fast A's clock runs against the machine's ({@code --clock-rate}): below 1 it runs slow
 */
record SlowClock(double clockRate) implements LabCase {

    /** The rate A's clock runs at unless {@code --clock-rate} says otherwise: one second counted for every two. */
    static final double DEFAULT_RATE = 0.5;

    /** The fastest rate {@code --clock-rate} takes: a clock ten times fast already ends A's lease at a tenth of its TTL. */
    static final double MAX_RATE = 10;

    SlowClock {
        if (!(clockRate > 0 && clockRate <= MAX_RATE)) {
            throw new IllegalArgumentException("A's clock rate must be above 0 and at most " + MAX_RATE + ", got " + clockRate);
        }
    }

    /** The case at {@link #DEFAULT_RATE}. */
    SlowClock() {
        this(DEFAULT_RATE);
    }

    @Override
    public String name() {
        return "slow-clock";
    }

    @Override
    public String title() {
        return "A clock that runs slow";
    }

    @Override
    public OptionalDouble aClockRate() {
        return OptionalDouble.of(clockRate);
    }

    @Override
    public LabCase withAClockRate(double rate) {
        return new SlowClock(rate);
    }

    @Override
    public Map<Mode, ModeExpectation> expected() {
        return LateWrite.lateWriteAfterB();
    }

    @Override
    public String explanation() {
        return String.format(Locale.ROOT, "A was never frozen. It took the lock with a lease it does not renew and, as many clients do to"
                + " stop writing before the TTL runs out, timed the lease itself: a timer of one TTL, started before it asked for the lock,"
                + " on its own clock. That clock ran at %s times the machine's. etcd, counting on its own clock, expired the lease"
                + " and deleted the key; B took the lock with a larger token and wrote B-current. Then A checked its timer, which"
                + " had counted only part of the TTL and said the lease was valid, and wrote A-late with its old token. The plain"
                + " sink stored it: B's write is lost. The fenced sink had seen B's larger token and rejected A; the current-owner"
                + " sink asked etcd and rejected A too. A holder's timer is only as good as its clock, and nothing checks that"
                + " clock against the lock service's; the resource, which reads no clock, is what keeps the order.", clockRate);
    }

    @Override
    public List<Step> steps() {
        return List.of(
                new WriteB(PLAIN, FENCED, CURRENT_OWNER),
                new TimedWriteA(PLAIN, FENCED, CURRENT_OWNER));
    }

    @Override
    public void check(Outcome outcome, List<String> differences) {
        Evidence.Clocks clocks = outcome.clocks();
        if (clocks == null) {
            differences.add("A never checked its own timer, or etcd was not asked about A's lease");
            return;
        }
        if (clocks.etcdTtlLeftSeconds() >= 0) {
            differences.add("etcd still had A's lease (" + clocks.etcdTtlLeftSeconds() + " s left) when A checked its timer: the case needs"
                    + " the lease gone first");
        }
        if (!clocks.aTimerSaysValid()) {
            differences.add(String.format(Locale.ROOT, "A's own timer said its lease was spent (its clock, at %s× the machine's, counted"
                    + " %.0f ms, the machine's %.0f ms), so A did not write: at this rate the timer kept A out, and the case shows nothing;"
                    + " a clock slow enough to count less than the TTL by then does", clocks.clockRate(), clocks.aClockMillis(), clocks.realMillis()));
        }
    }
}
