package fencing.lab.worker;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * A holder's own reckoning of its lease: the TTL counted on a clock of the holder's, from the moment it asked for the lock.
 *
 * <p>This is the optimisation many lock clients make (Redlock's "validity time" among them): stop writing once the
 * holder's timer says the TTL is spent, instead of asking the lock service. It is only as good as the holder's clock,
 * which is why the clock is injected: the slow-clock case gives worker A one that runs at {@code --clock-rate}.
 *
 * @param clock          the holder's clock, never the lock service's
 * @param startedAtNanos the clock's reading when the holder asked for the lock
 * @param ttl            the lease's time to live, as granted
 */
record LeaseTimer(LocalClock clock, long startedAtNanos, Duration ttl) {

    /** A clock of the holder's own, in nanoseconds from an arbitrary origin, like {@link System#nanoTime()}. */
    @FunctionalInterface
    interface LocalClock {

        /** Returns the clock's reading. */
        long nanos();

        /**
         * Returns a clock that runs at {@code rate} times the speed of {@code machine}: at 0.5 it counts one second
         * for every two that pass.
         *
         * @throws IllegalArgumentException if {@code rate} is not a positive, finite number
         */
        static LocalClock atRate(double rate, LongSupplier machine) {
            if (!(rate > 0) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("a clock's rate must be a positive number, got " + rate);
            }
            long origin = machine.getAsLong();
            return () -> origin + Math.round((machine.getAsLong() - origin) * rate);
        }
    }

    /** Starts a timer of {@code ttl} on {@code clock} now. */
    static LeaseTimer start(LocalClock clock, Duration ttl) {
        return new LeaseTimer(clock, clock.nanos(), ttl);
    }

    /** Reads the timer once: how long the holder's clock says it has held the lease, and what it says is left. */
    Reading read() {
        Duration elapsed = Duration.ofNanos(clock.nanos() - startedAtNanos);
        return new Reading(elapsed, ttl.minus(elapsed));
    }

    /**
     * One reading of the timer.
     *
     * @param elapsed how long the holder's clock says it has held the lease
     * @param left    the TTL less {@code elapsed}: negative once the clock says the TTL is spent
     */
    record Reading(Duration elapsed, Duration left) {

        /** Returns whether the holder's clock says the lease is still valid. */
        boolean saysValid() {
            return !left.isNegative() && !left.isZero();
        }
    }
}
