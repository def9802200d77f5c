package fencing.basics;

import java.util.function.Supplier;

/**
 * The lesson's timeline in code, and the rule that tells a stale token.
 *
 * <p>No method may stop the JVM ({@code System.exit}, {@code Runtime.exit}, {@code Runtime.halt}): report a
 * problem with an exception, so that every program using this class keeps running.
 */
public final class Fencing {

    private Fencing() {
    }

    /**
     * Plays the lesson's timeline against a new resource from {@code newResource} and returns its final value.
     *
     * <p>A acquires from a {@link LockService} (token 1); A pauses and its lease expires; B acquires
     * (token 2) and writes {@code "b"}; A resumes and writes {@code "a"} with its old token 1. The
     * result is {@code "b"} with {@code Resource::new} and {@code "a"} with {@code NaiveResource::new}.
     *
     * <p>Take both tokens from {@link LockService#acquire(String)} on one new lock service, never as literals: the
     * graded tests check that the scenario asks a {@code LockService} for them.
     *
     * @param newResource makes the resource both clients write to; call it once
     * @return the resource's value after A's late write
     */
    public static String scenario(Supplier<? extends ProtectedResource> newResource) {
        ProtectedResource resource = newResource.get();
        long tokenA = 1;
        long tokenB = 2;
        resource.write(tokenB, "b");
        // A resumes, still believing it holds the lock, and writes with its old token.
        resource.write(tokenA, "a");
        return resource.value();
    }

    /**
     * Plays the pre-contact timeline against a new resource from {@code newResource}: A writes late, before B has written.
     *
     * <p>A acquires from a {@link LockService} (token 1); A pauses and its lease expires; B acquires
     * (token 2) but has not contacted the resource yet; A resumes and writes {@code "a"} with its old
     * token 1; then B writes {@code "b"} with token 2. A high-water mark has seen no token above 1 when
     * A writes, so {@code Resource::new} accepts A's late write: the result is {@code (true, "b")}.
     *
     * @param newResource makes the resource both clients write to; call it once
     * @return whether A's late write was accepted, and the resource's value after B's write
     */
    public static PreContact preContact(Supplier<? extends ProtectedResource> newResource) {
        ProtectedResource resource = newResource.get();
        LockService locks = new LockService();
        long tokenA = locks.acquire("A");
        // A pauses; its lease expires and B acquires, but B has not reached the resource yet.
        long tokenB = locks.acquire("B");
        boolean lateWriteAccepted = resource.write(tokenA, "a");
        resource.write(tokenB, "b");
        return new PreContact(lateWriteAccepted, resource.value());
    }

    /**
     * Tells whether a write with {@code token} is stale for a resource whose highest token is {@code highest}.
     *
     * <p>A token is stale when it is below the highest token seen: its holder has been replaced by a
     * newer owner. A token equal to the highest is not stale.
     */
    public static boolean isStale(long token, long highest) {
        return token < highest;
    }
}
