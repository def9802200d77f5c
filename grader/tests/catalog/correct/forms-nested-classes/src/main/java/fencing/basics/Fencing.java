package fencing.basics;

import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/** The lesson's timeline in code, and the rule that tells a stale token: the tokens live in a nested record. */
public final class Fencing {

    /** The two clients' tokens, granted by one lock service, A first. */
    private record Tokens(long a, long b) {

        static Tokens grantedBy(LockService locks) {
            long a = locks.acquire("A");
            return new Tokens(a, locks.acquire("B"));
        }
    }

    private Fencing() {
    }

    /** Plays the lesson's timeline: B writes with token 2, then A writes late with its old token 1. */
    public static String scenario(Supplier<? extends ProtectedResource> newResource) {
        ProtectedResource resource = newResource.get();
        Tokens tokens = Tokens.grantedBy(new LockService());
        resource.write(tokens.b(), "b");
        resource.write(tokens.a(), "a");
        return resource.value();
    }

    /** Plays the pre-contact timeline: A writes late with token 1 before B writes with token 2. */
    public static PreContact preContact(Supplier<? extends ProtectedResource> newResource) {
        ProtectedResource resource = newResource.get();
        LockService locks = new LockService();
        ToLongFunction<String> grant = new ToLongFunction<>() {
            @Override
            public long applyAsLong(String client) {
                return locks.acquire(client);
            }
        };
        long tokenA = grant.applyAsLong("A");
        long tokenB = grant.applyAsLong("B");
        boolean lateWriteAccepted = resource.write(tokenA, "a");
        resource.write(tokenB, "b");
        return new PreContact(lateWriteAccepted, resource.value());
    }

    /** Tells whether {@code token} is below {@code highest}. */
    public static boolean isStale(long token, long highest) {
        return token < highest;
    }
}
