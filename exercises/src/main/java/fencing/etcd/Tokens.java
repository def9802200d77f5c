package fencing.etcd;

/**
 * Fencing tokens made of an epoch and a revision: {@code epoch << 40 | revision}, compared as plain longs.
 *
 * <p>Provided code. etcd's revision starts again from an older value when a cluster is restored from a
 * snapshot (or replaced by an empty one), so a revision alone does not keep growing across such a recovery.
 * The epoch is raised once per recovery ({@link Recovery}), and because it sits above every bit a revision
 * can use, a token of a later epoch is larger than any token of an earlier one, whatever their revisions.
 * With 40 bits for the revision and 23 for the epoch, every token is positive, and {@code compose(0, r) == r}:
 * an epoch-0 token is the create_revision itself.
 */
public final class Tokens {

    /** The number of low bits that hold the revision. */
    public static final int REVISION_BITS = 40;
    /** The number of bits above them that hold the epoch; the sign bit stays clear. */
    public static final int EPOCH_BITS = 23;
    /** The first revision that no longer fits: {@code 2^40}. */
    public static final long REVISION_LIMIT = 1L << REVISION_BITS;
    /** The first epoch that no longer fits: {@code 2^23}. */
    public static final long EPOCH_LIMIT = 1L << EPOCH_BITS;

    private Tokens() {
    }

    /**
     * Returns the token of {@code revision} in {@code epoch}: {@code epoch << 40 | revision}.
     *
     * @throws IllegalArgumentException if {@code revision} is not in {@code [0, 2^40)} or {@code epoch} not in {@code [0, 2^23)}
     */
    public static long compose(long epoch, long revision) {
        if (revision < 0 || revision >= REVISION_LIMIT) {
            throw new IllegalArgumentException("a token's revision must be in [0, 2^40), got " + revision
                    + ": a larger one would run into the epoch's bits");
        }
        if (epoch < 0 || epoch >= EPOCH_LIMIT) {
            throw new IllegalArgumentException("a token's epoch must be in [0, 2^23), got " + epoch
                    + ": a larger one would make the token negative");
        }
        return epoch << REVISION_BITS | revision;
    }

    /**
     * Returns the epoch part of {@code token}.
     *
     * @throws IllegalArgumentException if {@code token} is negative (no composed token is)
     */
    public static long epoch(long token) {
        return requireToken(token) >>> REVISION_BITS;
    }

    /**
     * Returns the revision part of {@code token}.
     *
     * @throws IllegalArgumentException if {@code token} is negative (no composed token is)
     */
    public static long revision(long token) {
        return requireToken(token) & (REVISION_LIMIT - 1);
    }

    private static long requireToken(long token) {
        if (token < 0) {
            throw new IllegalArgumentException("a token is never negative, got " + token);
        }
        return token;
    }
}
