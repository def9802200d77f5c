package fencing.lab.run;

/** How worker A holds the lock while its lease runs out, which names the moment the repeat's expiry is counted from. */
enum AHolds {

    /** Frozen with SIGSTOP, so that its keepalives stop: the lease runs out from the last one. */
    FROZEN("SIGSTOP", "A frozen", "holds the lock, keeps its lease alive and has read the sink",
            "etcd's own count for A's lease right after the freeze (whole seconds)"),

    /** Running, with a lease it never renews, timed on its own clock: the lease runs out from its grant. */
    UNRENEWED("A took the lock", "A running, its lease not renewed",
            "holds the lock and has read the sink; it does not renew its lease, and times it on its own clock",
            "etcd's own count for A's lease, which A does not renew (whole seconds)"),

    /** Running, with its path to etcd cut and its path to the sink open: its keepalives go unanswered, and the lease runs out from the last one etcd heard. */
    CUT_OFF("the cut", "A running, cut off from etcd",
            "holds the lock, keeps its lease alive and has read the sink",
            "etcd's own count for A's lease right after the cut (whole seconds)");

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

    /** Returns how A holds the lock in {@code labCase}. */
    static AHolds of(LabCase labCase) {
        return labCase.aClockRate().isPresent() ? UNRENEWED : labCase.cutsAFromEtcd() ? CUT_OFF : FROZEN;
    }
}
