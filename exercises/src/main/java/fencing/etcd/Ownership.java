package fencing.etcd;

/**
 * One grant of the etcd lock: who holds it, its fencing token and the lease that keeps it alive.
 *
 * <p>Provided code. From {@link EtcdLockService} the token is the lock key's {@code create_revision}; from
 * {@link EpochLockService} it is {@code Tokens.compose(epoch, create_revision)}, the epoch read in the Txn that
 * created the key. The lease ID is not a token: lease IDs are not ordered by grant.
 *
 * <p>A later owner gets a larger token only within one lineage of the cluster's data. etcd's revision
 * counter grows with every write, but a cluster restored from a snapshot, or replaced by an empty one, counts
 * again from the snapshot's revision (or from 1): its next owner's create_revision can be below tokens already
 * issued and accepted. A bare create_revision is therefore a sound token only while the cluster's history is
 * never rolled back. Recovery must first raise the epoch above that of every token seen ({@link Recovery}), so
 * that composed tokens stay strictly newer across the restore.
 *
 * @param owner   the name of the holder
 * @param token   the fencing token: the create_revision, or {@code Tokens.compose(epoch, create_revision)}
 * @param leaseId the ID of the lease the lock key is attached to
 */
public record Ownership(String owner, long token, long leaseId) {
}
