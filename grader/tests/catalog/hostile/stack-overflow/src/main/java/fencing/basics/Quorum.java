package fencing.basics;

/** The majority arithmetic behind a consensus group such as etcd's. */
public final class Quorum {

    private Quorum() {
    }

    public static int size(int members) {
        return size(members + 1);
    }

    public static int tolerated(int members) {
        return members - size(members);
    }
}

