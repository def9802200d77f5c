package fencing.etcd;

/**
 * One grant of the etcd lock: who holds it, its fencing token and the lease that keeps it alive.
 *
 * <p>Provided code. The token is the lock key's {@code create_revision}: etcd's revision counter
 * grows with every write to the cluster, so a later owner always gets a larger token. The lease ID
 * is not a token: lease IDs are not ordered by grant.
 *
 * @param owner   the name of the holder
 * @param token   the fencing token: the lock key's create_revision
 * @param leaseId the ID of the lease the lock key is attached to
 */
public record Ownership(String owner, long token, long leaseId) {
}
