package fencing.basics;

/** The majority arithmetic behind a consensus group such as etcd's. */
public final class Quorum {

    private static final String FLOOD = ("Quorum.size will not decide: " + "a majority, ".repeat(25_000)).substring(0, 300_000);

    private Quorum() {
    }

    public static int size(int members) {
        throw new IllegalStateException(FLOOD);
    }

    public static int tolerated(int members) {
        return members - size(members);
    }
}
