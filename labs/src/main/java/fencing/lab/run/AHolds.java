package fencing.lab.run;

import java.util.OptionalDouble;

/** How worker A holds the lock while its lease runs out, which names the moment the repeat's expiry is counted from. */
enum AHolds {

    /** Frozen with SIGSTOP, so that its keepalives stop: the lease runs out from the last one. */
    FROZEN("SIGSTOP", "A frozen"),

    /** Running, with a lease it never renews, timed on its own clock: the lease runs out from its grant. */
    UNRENEWED("A took the lock", "A running, its lease not renewed");

    /** The moment the wait for the key's deletion is counted from, as the progress lines name it. */
    final String since;
    /** What A is doing meanwhile, as the countdown names it. */
    final String meanwhile;

    AHolds(String since, String meanwhile) {
        this.since = since;
        this.meanwhile = meanwhile;
    }

    /** Returns how A holds the lock in a case whose A times its lease on a clock at {@code clockRate}, if it does. */
    static AHolds of(OptionalDouble clockRate) {
        return clockRate.isPresent() ? UNRENEWED : FROZEN;
    }
}
