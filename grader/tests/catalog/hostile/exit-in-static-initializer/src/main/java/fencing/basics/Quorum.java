package fencing.basics;

/** The majority arithmetic behind a consensus group such as etcd's. */
public final class Quorum {

    private Quorum() {
    }

    static {
        System.exit(0);
    }

    public static int size(int members) {
        return members / 2 + 1;
    }

    public static int tolerated(int members) {
        return members - size(members);
    }
}

