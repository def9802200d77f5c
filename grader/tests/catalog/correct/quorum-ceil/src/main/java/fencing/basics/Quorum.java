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
        if (members < 1) {
            throw new IllegalArgumentException("no majority in a group of " + members + " members");
        }
        return (int) Math.ceil((members + 1) / 2.0);
    }

    /**
     * Returns how many members can fail while a majority still answers: {@code members - size(members)}.
     *
     * @throws IllegalArgumentException if {@code members < 1}
     */
    public static int tolerated(int members) {
        if (members < 1) {
            throw new IllegalArgumentException("no majority in a group of " + members + " members");
        }
        return (members - 1) / 2;
    }
}
