package fencing.basics;

/** The majority arithmetic behind a consensus group such as etcd's. */
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
     * @throws IllegalArgumentException if {@code members < 1}
     */
    public static int tolerated(int members) {
        requireMembers(members);
        return members / 2;
    }

    private static void requireMembers(int members) {
        if (members < 1) {
            throw new IllegalArgumentException("a group needs at least 1 member, got " + members);
        }
    }
}
