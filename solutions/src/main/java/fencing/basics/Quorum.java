package fencing.basics;

/**
 * The majority arithmetic behind a consensus group such as etcd's.
 *
 * <p>No method may stop the JVM ({@code System.exit}, {@code Runtime.exit}, {@code Runtime.halt}): report a
 * problem with an exception, so that every program using this class keeps running.
 */
public final class Quorum {

    private Quorum() {
    }

    /**
     * Returns the number of members that form a majority: {@code floor(members / 2) + 1}.
     *
     * @throws IllegalArgumentException if {@code members < 1}
     */
    public static int size(int members) {
        requireMembers(members);
        return members / 2 + 1;
    }

    /**
     * Returns how many members can fail while a majority still answers: {@code members - size(members)}.
     *
     * <p>The group keeps working with that many members down provided the remaining participants can communicate:
     * a majority that is up but split by the network cannot answer either.
     *
     * @throws IllegalArgumentException if {@code members < 1}
     */
    public static int tolerated(int members) {
        return members - size(members);
    }

    private static void requireMembers(int members) {
        if (members < 1) {
            throw new IllegalArgumentException("a group needs at least 1 member, got " + members);
        }
    }
}
