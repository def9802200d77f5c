package fencing.basics;

/** A fenced resource whose state is shared by all instances, and so by all tests. */
public final class Resource implements ProtectedResource {

    private static String value;
    private static long highest;

    @Override
    public boolean write(long token, String value) {
        synchronized (Resource.class) {
            if (token < highest) {
                return false;
            }
            Resource.highest = token;
            Resource.value = value;
            return true;
        }
    }

    @Override
    public String value() {
        synchronized (Resource.class) {
            return value;
        }
    }

    public long highest() {
        synchronized (Resource.class) {
            return highest;
        }
    }
}
