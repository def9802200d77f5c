package fencing.grader.pipeline;

import fencing.support.Channel;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Follows one test JVM's events until it is done, ends, or must be stopped: a test (or a class's set-up) that used its CPU
 * budget, or that reached the wall-clock backstop, or the run's time limit.
 *
 * <p>Whatever runs, a test or a class's set-up outside any test, is measured from the moment its start event arrives.
 */
final class JvmWatch {

    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration BACKSTOP_RECHECK = Duration.ofSeconds(1);
    /**
     * How long one thread of the test JVM or of etcd may have waited for a CPU during a test that failed on a time bound
     * ({@link Tally#TIME_BOUND}), before the machine, not the submission, may have failed it: a student's own bound on a
     * call (five seconds for an etcd call, a busy timeout for SQLite's lock) runs out while etcd or the JVM stands in the
     * run queue. A failure of any other kind is the submission's however starved the machine was.
     */
    static final Duration STARVED_FAILURE = Duration.ofSeconds(1);

    /** How a test JVM's run ended. */
    enum Kind { DONE, EXITED, OVER_BUDGET, BACKSTOP, TIME_LIMIT }

    /**
     * How a test JVM's run ended, and what was running then.
     *
     * @param kind      how it ended
     * @param running   the test, or else the class container, that was running, or {@code null}
     * @param isTest    whether {@code running} is a test rather than a class's set-up
     * @param cpu       the CPU {@code running} had used
     * @param waited    the longest time one of the JVM's threads waited for a CPU while it ran, or {@code null} where
     *                  unknown
     * @param wall      how long it had run
     */
    record Ending(Kind kind, String running, boolean isTest, Duration cpu, Duration waited, Duration wall) {

        static Ending of(Kind kind) {
            return new Ending(kind, null, false, Duration.ZERO, null, Duration.ZERO);
        }

        /**
         * Whether one of the JVM's threads spent at least a third of the run ready to run but waiting for a CPU: then the
         * machine, not the submission, kept it from finishing.
         */
        boolean starved() {
            return waited != null && waited.multipliedBy(3).compareTo(wall) >= 0;
        }
    }

    private final Limits limits;
    private final Tally tally;
    private final JvmWork work;
    private final long deadline;
    private final boolean together;
    /** When several groups run side by side: each running test or class, with the reading and time it was first seen at. */
    private final Map<String, Start> starts = new HashMap<>();
    /** When several groups run side by side: the reading and time of the watch's first look at the JVM. */
    private Start first;
    /**
     * When several groups run side by side: the tests, and the classes whose set-up failed, that failed on a time bound
     * while a thread of the JVM or etcd was starved.
     */
    private final java.util.Set<String> starvedFailures = new java.util.LinkedHashSet<>();
    private String current;
    private JvmWork.Reading currentStart;
    private Limits.Test currentLimits;
    private long currentSince;
    private long nextWaitCheck;

    /**
     * Creates a watch of the JVM {@code pid} and of {@code etcd}, the etcd process its tests use where the grader started
     * it, whose threads' waits for a CPU count with the JVM's in the backstop; with {@code together}, the JVM runs several
     * groups of tests side by side, so that no CPU or time can be put down to one test: the JVM is stopped as soon as the
     * oldest of what runs has seen its JVM use a test's CPU budget, or reach the backstop, and what ends is {@link
     * Ending#running()} {@code null}.
     */
    JvmWatch(Limits limits, Tally tally, long pid, java.util.OptionalLong etcd, long deadline, boolean together) {
        this.limits = limits;
        this.tally = tally;
        this.work = new JvmWork(pid, etcd);
        this.deadline = deadline;
        this.together = together;
    }

    private record Start(JvmWork.Reading reading, long since) {
    }

    /** Reads {@code events} until the JVM is done or must be stopped; a closed channel is the JVM's end. */
    Ending follow(Channel events) throws IOException {
        while (true) {
            Optional<String> test = together ? Optional.empty() : tally.running();
            Optional<String> running = together || test.isPresent() ? test : tally.runningClass();
            Ending stop = together ? checkTogether() : check(running.orElse(null), test.isPresent());
            if (stop != null) {
                return stop;
            }
            Optional<TestEvent> event;
            try {
                event = events.poll(TestEvent.class, POLL);
            } catch (Channel.Closed closed) {
                return ending(Kind.EXITED, running.orElse(null), test.isPresent());
            }
            if (event.isEmpty()) {
                continue;
            }
            if (event.get() instanceof TestEvent.Done) {
                return Ending.of(Kind.DONE);
            }
            tally.record(event.get());
        }
    }

    /** Returns why the JVM must be stopped now, or {@code null}; starts measuring {@code running} when it is new. */
    private Ending check(String running, boolean isTest) {
        if (System.nanoTime() >= deadline) {
            return ending(Kind.TIME_LIMIT, running, isTest);
        }
        if (running == null) {
            current = null;
            return null;
        }
        if (!running.equals(current)) {
            current = running;
            currentStart = work.readWithEtcd();
            currentLimits = limits.of(tally.test(running));
            currentSince = System.nanoTime();
            nextWaitCheck = currentSince + currentLimits.wall().toNanos();
            return null;
        }
        // Only the CPU each poll: the threads' waits are read when something ends, as they matter only then.
        if (work.cpuSince(currentStart).compareTo(currentLimits.cpu()) > 0) {
            return ending(Kind.OVER_BUDGET, running, isTest, work.read());
        }
        // The backstop counts only the time no thread of the JVM was kept waiting for a CPU: a test the machine starves
        // is not stopped by it (its CPU budget still stops an endless loop), while a deadlock, which wants no CPU, is.
        long now = System.nanoTime();
        if (now >= nextWaitCheck) {
            JvmWork.Reading reading = work.readWithEtcd();
            long waited = longestWait(reading, currentStart);
            long unstarved = now - currentSince - waited;
            if (unstarved >= currentLimits.wall().toNanos()) {
                return ending(Kind.BACKSTOP, running, isTest, reading);
            }
            nextWaitCheck = now + Math.max(BACKSTOP_RECHECK.toNanos(), currentLimits.wall().toNanos() - unstarved);
        }
        return null;
    }

    /**
     * Returns why the JVM, running groups side by side, must be stopped now, or {@code null}: the measure of the oldest
     * test or class that still runs, whose limits cover all that ran since it started.
     */
    private Ending checkTogether() {
        if (first == null) {
            first = new Start(work.read(), System.nanoTime());
        }
        if (System.nanoTime() >= deadline) {
            return whole(Kind.TIME_LIMIT);
        }
        java.util.Set<String> running = tally.allRunning();
        List<String> failed = starts.keySet().stream().filter(id -> !running.contains(id) && tally.failedOnATimeBound(id)).toList();
        boolean fresh = running.stream().anyMatch(id -> !starts.containsKey(id));
        if (running.isEmpty() && failed.isEmpty()) {
            starts.clear();
            return null;
        }
        // etcd's waits are read only where a test starts or failed: a test's start is its measure's, a failure its end.
        JvmWork.Reading now = fresh || !failed.isEmpty() ? work.readWithEtcd() : work.read();
        long time = System.nanoTime();
        failed.stream().filter(id -> now.longestWaitWithEtcdSince(starts.get(id).reading())
                        .map(waited -> waited.compareTo(STARVED_FAILURE) >= 0).orElse(false))
                .forEach(starvedFailures::add);
        starts.keySet().retainAll(running);
        if (running.isEmpty()) {
            return null;
        }
        running.forEach(id -> starts.putIfAbsent(id, new Start(now, time)));
        Start oldest = starts.values().stream().min(java.util.Comparator.comparingLong(Start::since)).orElseThrow();
        if (now.cpuSince(oldest.reading()).compareTo(limits.testCpu()) > 0) {
            return new Ending(Kind.OVER_BUDGET, null, false, now.cpuSince(oldest.reading()), null, Duration.ofNanos(time - oldest.since()));
        }
        long waited = now.longestWaitSince(oldest.reading()).map(Duration::toNanos).orElse(0L);
        if (time - oldest.since() - waited >= limits.testWall().toNanos()) {
            // Only then etcd's threads too: a test kept waiting by a starved etcd is starved, not stuck.
            waited = longestWait(work.readWithEtcd(), oldest.reading());
            if (time - oldest.since() - waited >= limits.testWall().toNanos()) {
                return new Ending(Kind.BACKSTOP, null, false, now.cpuSince(oldest.reading()), Duration.ofNanos(waited),
                        Duration.ofNanos(time - oldest.since()));
            }
        }
        return null;
    }

    /** The longest wait for a CPU of one thread of the JVM, or of etcd where both readings have it, in nanoseconds. */
    private static long longestWait(JvmWork.Reading now, JvmWork.Reading earlier) {
        return now.longestWaitWithEtcdSince(earlier).or(() -> now.longestWaitSince(earlier)).map(Duration::toNanos).orElse(0L);
    }

    /**
     * Returns the tests, and the classes whose set-up failed, that, run side by side, failed on a time bound while one
     * thread of the JVM or of etcd waited at least {@link #STARVED_FAILURE} for a CPU: the machine, not the submission,
     * may have failed them.
     */
    java.util.Set<String> starvedFailures() {
        return starvedFailures;
    }

    /**
     * The ending of a JVM running groups side by side, measured over all the time it was watched: whether the machine
     * starved it ({@link Ending#starved()}) is a question about its whole run, not about whichever test started last.
     */
    private Ending whole(Kind kind) {
        JvmWork.Reading now = work.read();
        return new Ending(kind, null, false, now.cpuSince(first.reading()), now.longestWaitSince(first.reading()).orElse(null),
                Duration.ofNanos(System.nanoTime() - first.since()));
    }

    private Ending ending(Kind kind, String running, boolean isTest) {
        return running == null || !running.equals(current) ? new Ending(kind, running, isTest, Duration.ZERO, null, Duration.ZERO)
                : ending(kind, running, isTest, work.read());
    }

    private Ending ending(Kind kind, String running, boolean isTest, JvmWork.Reading now) {
        Duration waited = now.longestWaitSince(currentStart).orElse(null);
        return new Ending(kind, running, isTest, now.cpuSince(currentStart), waited, Duration.ofNanos(System.nanoTime() - currentSince));
    }
}
