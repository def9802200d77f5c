package fencing.basics;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Wrong: a fenced resource that also lets a stale write in once the mark is 30 s old, timed by a clock hidden in an
 * anonymous class.
 */
public final class Resource implements ProtectedResource {

    private final LongSupplier millis = new LongSupplier() {
        @Override
        public long getAsLong() {
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
        }
    };

    private String value;

    private long highest;

    /** When the mark was last raised, in milliseconds of the clock above. */
    private long markSetAt = millis.getAsLong();

    @Override
    public synchronized boolean write(long token, String value) {
        long now = millis.getAsLong();
        if (token < highest && now - markSetAt < 30_000) {
            return false;
        }
        this.highest = token;
        this.value = value;
        this.markSetAt = now;
        return true;
    }

    @Override
    public synchronized String value() {
        return value;
    }

    /** Returns the highest token of an accepted write, or 0 before any accepted write. */
    public synchronized long highest() {
        return highest;
    }
}
