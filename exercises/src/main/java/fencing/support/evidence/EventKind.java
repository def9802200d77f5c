package fencing.support.evidence;

/**
 * What happened at a point of the timeline: an {@link Evidence.Event}'s {@code kind}. The {@code token}, {@code mode},
 * {@code verdict} and {@code total} named below are the event's {@link Evidence.About}.
 */
public enum EventKind {
    /** A holder took the lock; {@code token} is its token. */
    ACQUIRED,
    /** etcd created the lock key at revision {@code token}. */
    KEY_CREATED,
    /** Worker A holds the lock, keeps its lease alive and has read the sink. */
    READY,
    /** A was frozen with SIGSTOP. */
    FROZEN,
    /** A's path to etcd was cut, its path to the sink left open: it runs on, and its keepalives go unanswered. */
    CUT_OFF,
    /** A checked its lease on its own timer; {@code verdict} is {@code valid} or {@code expired}. */
    TIMER_CHECKED,
    /** etcd had no lease of A's when asked: it expired and was revoked. */
    LEASE_NOT_FOUND,
    /** etcd's count of A's lease (whole seconds): right after the freeze, or sampled while its leader fails. */
    LEASE_TTL_LEFT,
    /** etcd's leader member was killed while A was frozen. */
    LEADER_FAULT,
    /** The remaining members agreed on a new leader. */
    LEADER_ELECTED,
    /** A's lease's remaining TTL went up although A, frozen, sent no keepalive: the new leader renewed it. */
    LEASE_RENEWED,
    /** etcd expired A's lease and deleted the key. */
    KEY_DELETED,
    /** B's write got its reply; {@code mode} and {@code verdict} say where and how. */
    WROTE,
    /** A was resumed with SIGCONT. */
    RESUMED,
    /** The sink server was killed with SIGKILL. */
    SINK_KILLED,
    /** A new sink server runs over the same files. */
    SINK_RESTARTED,
    /** The broken sink holds A's write between its check and its write. */
    WRITE_HELD,
    /** The hold was released. */
    HOLD_RELEASED,
    /** The sink decided on a write; {@code mode}, {@code token} and {@code verdict} say which and how. */
    VERDICT,
    /** A ledger decided on a request; {@code mode} names the ledger, {@code verdict} and {@code total} say how and what after. */
    LEDGER_VERDICT,
    /** A request was applied and its response lost on purpose; {@code mode} names the ledger. */
    RESPONSE_LOST,
    /** The client sent a request again, with the same id, after its response was lost. */
    RETRIED,
    /** C, which never held the lock, wrote with a token it made up; {@code mode} and {@code verdict} say where and how. */
    FORGED_WRITE,
    /** etcd renewed A's lease. */
    KEEPALIVE,
    /** jetcd told A its lease is gone. */
    LEASE_LOST,
    /** jetcd stopped keeping A's lease alive. */
    KEEPALIVE_ENDED,
    /** B's keepalive failed. */
    KEEPALIVE_FAILED,
    /** B released the lock. */
    RELEASED,
    /** etcd's keyspace was saved in a snapshot at revision {@code token}. */
    SNAPSHOT,
    /** etcd was stopped and brought back from the snapshot (or replaced); {@code token} is its revision after. */
    ETCD_RESTORED,
    /** Recovery raised the epoch; {@code token} is the mark it was raised above. */
    EPOCH_RAISED,
    /** The sink's database files were copied aside, as a backup. */
    SINK_BACKED_UP,
    /** The sink's database files were replaced by the backup, and a new sink server runs over them. */
    SINK_RESTORED_FROM_BACKUP;

    /**
     * Returns whether a run can miss this event: it is seen by sampling etcd (which counts a lease's TTL in whole
     * seconds), not recorded by a step of the run, so it supports a verdict and never decides one.
     */
    public boolean sampled() {
        return this == LEASE_RENEWED;
    }
}
