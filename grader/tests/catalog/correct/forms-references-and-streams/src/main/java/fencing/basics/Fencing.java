package fencing.basics;

import java.util.function.Supplier;
import java.util.stream.Stream;

/** The lesson's timeline in code, and the rule that tells a stale token: tokens come from a stream of clients. */
public final class Fencing {

    private Fencing() {
    }

    /** Plays the lesson's timeline: B writes with token 2, then A writes late with its old token 1. */
    public static String scenario(Supplier<? extends ProtectedResource> newResource) {
        ProtectedResource resource = newResource.get();
        long[] tokens = tokensFor(new LockService(), "A", "B");
        resource.write(tokens[1], "b");
        resource.write(tokens[0], "a");
        return resource.value();
    }

    /** Plays the pre-contact timeline: A writes late with token 1 before B writes with token 2. */
    public static PreContact preContact(Supplier<? extends ProtectedResource> newResource) {
        ProtectedResource resource = newResource.get();
        long[] tokens = tokensFor(new LockService(), "A", "B");
        boolean lateWriteAccepted = resource.write(tokens[0], "a");
        resource.write(tokens[1], "b");
        return new PreContact(lateWriteAccepted, resource.value());
    }

    /** Tells whether {@code token} is below {@code highest}. */
    public static boolean isStale(long token, long highest) {
        return token < highest;
    }

    /** Has each client acquire from {@code locks} in the order given, and returns their tokens in that order. */
    private static long[] tokensFor(LockService locks, String... clients) {
        return Stream.of(clients).mapToLong(locks::acquire).toArray();
    }
}
