package fencing.lab.run;

import java.util.OptionalDouble;

/** How worker A holds the lock while its lease runs out, which names the moment the repeat's expiry is counted from. */
enum AHolds {

    /** Frozen with SIGSTOP, so that its keepalives stop: the lease runs out from the last one. */
    FROZEN("SIGSTOP", "A frozen", "holds the lock, keeps its lease alive and has read the sink",
            "etcd's own count for A's lease right after the freeze (whole seconds)"),

    /** Running, with a lease it never renews, timed on its own clock: the lease runs out from its grant. */
    UNRENEWED("A took the lock", "A running, its lease not renewed",
            "holds the lock and has read the sink; it does not renew its lease, and times it on its own clock",
            "etcd's own count for A's lease, which A does not renew (whole seconds)");

    /** The moment the wait for the key's deletion is counted from, as the progress lines name it. */
    final String since;
    /** What A is doing meanwhile, as the countdown names it. */
    final String meanwhile;
    /** What A is doing once it said READY, as the journal's READY event says it. */
    final String ready;
    /** What etcd's count of A's lease is, as the journal's first lease sample says it. */
    final String ttlSample;

    AHolds(String since, String meanwhile, String ready, String ttlSample) {
        this.since = since;
        this.meanwhile = meanwhile;
        this.ready = ready;
        this.ttlSample = ttlSample;
    }

    /** Returns how A holds the lock in a case whose A times its lease on a clock at {@code clockRate}, if it does. */
    static AHolds of(OptionalDouble clockRate) {
        return clockRate.isPresent() ? UNRENEWED : FROZEN;
    }
}
