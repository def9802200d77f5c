package fencing.grading;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How long a test waits for the code under test to reach an event, counted without the time the machine kept this JVM's
 * threads waiting for a CPU.
 *
 * <p>A hidden test causes the events it observes and waits for them; its limit only catches code that never gets there (a
 * deadlock, a step that never ends). On a machine so busy that the code's threads stand in the run queue, the time they
 * stood there is added to the limit, as the grader does for a whole test: a starved machine makes a test slower, never
 * changes its verdict. The waiting is read by {@link RunQueueWaits}; where the system does not say, the limit is the
 * plain wall clock. One thread waits on a backstop.
 */
public final class Backstop {

    private static final Path TASKS = Path.of("/proc/self/task");
    /**
     * How old a reading of the threads' waits may be and still be a backstop's starting point: reading them costs about a
     * millisecond of CPU, and a test may start hundreds of backstops; an older start only lengthens a limit, by no more
     * than the waits of this long.
     */
    private static final long REUSE_NANOS = 250_000_000L;
    private static volatile Reading last;

    private final Duration limit;
    private final long start;
    private final Map<String, Long> waitedAtStart;
    private long deadline;

    /** The threads' waits for a CPU ({@link RunQueueWaits}), and when they were read. */
    private record Reading(long atNanos, Map<String, Long> waited) {
    }

    private Backstop(Duration limit) {
        this.start = System.nanoTime();
        this.limit = limit;
        this.waitedAtStart = startingPoint(start);
        this.deadline = start + limit.toNanos();
    }

    /** Starts a limit of {@code limit} from now. */
    public static Backstop of(Duration limit) {
        return new Backstop(limit);
    }

    private static Map<String, Long> startingPoint(long now) {
        Reading reading = last;
        if (reading == null || now - reading.atNanos() > REUSE_NANOS) {
            reading = new Reading(System.nanoTime(), waited());
            last = reading;
        }
        return reading.waited();
    }

    /**
     * Returns whether the limit has passed: as much time as the limit has gone by, besides the longest time one of this
     * JVM's threads has waited for a CPU since the start (or since a reading at most a quarter of a second before it).
     */
    public boolean passed() {
        if (System.nanoTime() < deadline) {
            return false;
        }
        deadline = start + limit.toNanos() + longestWaitSinceStart();
        return System.nanoTime() >= deadline;
    }

    /** Waits until {@code latch} is open or the limit has passed; returns whether it is open. */
    public boolean await(CountDownLatch latch) throws InterruptedException {
        do {
            if (latch.await(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return true;
            }
        } while (!passed());
        return latch.getCount() == 0;
    }

    /** Waits for {@code future} as {@link Future#get(long, TimeUnit)} does, until the limit has passed. */
    public <T> T get(Future<T> future) throws InterruptedException, ExecutionException, TimeoutException {
        while (true) {
            try {
                return future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                if (passed()) {
                    throw e;
                }
            }
        }
    }

    private static Map<String, Long> waited() {
        return RunQueueWaits.read(TASKS).orElse(Map.of());
    }

    private long longestWaitSinceStart() {
        Map<String, Long> now = waited();
        long longest = 0;
        for (Map.Entry<String, Long> thread : now.entrySet()) {
            longest = Math.max(longest, thread.getValue() - waitedAtStart.getOrDefault(thread.getKey(), 0L));
        }
        return longest;
    }
}
