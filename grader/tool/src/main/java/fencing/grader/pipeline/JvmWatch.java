package fencing.grader.pipeline;

import fencing.support.Channel;
import fencing.support.Supervised;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * Follows one test JVM's events until it is done, ends, or must be stopped: a test (or a class's set-up) that used its CPU
 * budget, or that reached the wall-clock backstop, or the run's time limit.
 *
 * <p>Whatever runs, a test or a class's set-up outside any test, is measured from the moment its start event arrives.
 */
final class JvmWatch {

    private static final Duration POLL = Duration.ofMillis(100);

    /** How a test JVM's run ended. */
    enum Kind { DONE, EXITED, OVER_BUDGET, BACKSTOP, TIME_LIMIT }

    /**
     * How a test JVM's run ended, and what was running then.
     *
     * @param kind      how it ended
     * @param running   the test, or else the class container, that was running, or {@code null}
     * @param isTest    whether {@code running} is a test rather than a class's set-up
     * @param cpu       the CPU {@code running} had used
     * @param waited    the longest time one of the JVM's threads waited for a CPU over the second half of that run, or
     *                  {@code null} where unknown
     * @param wall      how long it had run
     */
    record Ending(Kind kind, String running, boolean isTest, Duration cpu, Duration waited, Duration wall) {

        static Ending of(Kind kind) {
            return new Ending(kind, null, false, Duration.ZERO, null, Duration.ZERO);
        }

        /**
         * Whether, over the second half of the run, one of the JVM's threads spent at least a third of the time ready to
         * run but waiting for a CPU: then the machine, not the submission, kept it from finishing. Only the second half
         * counts, because a test that deadlocks or waits forever may well have waited for a CPU on its way there.
         */
        boolean starved() {
            return waited != null && waited.multipliedBy(6).compareTo(wall) >= 0;
        }
    }

    private final Limits limits;
    private final Tally tally;
    private final JvmWork work;
    private final long deadline;
    private String current;
    private JvmWork.Reading currentStart;
    private JvmWork.Reading halfway;
    private long currentSince;

    JvmWatch(Limits limits, Tally tally, long pid, long deadline) {
        this.limits = limits;
        this.tally = tally;
        this.work = new JvmWork(pid);
        this.deadline = deadline;
    }

    /** Reads {@code events} until the JVM is done or must be stopped; a closed channel is the JVM's end. */
    Ending follow(Channel events, Supervised jvm) throws IOException {
        while (true) {
            Optional<String> test = tally.running();
            Optional<String> running = test.isPresent() ? test : tally.runningClass();
            Ending stop = check(running.orElse(null), test.isPresent());
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
                if (!jvm.isAlive()) {
                    return ending(Kind.EXITED, running.orElse(null), test.isPresent());
                }
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
            currentStart = work.read();
            halfway = null;
            currentSince = System.nanoTime();
            return null;
        }
        // Only the CPU each poll: the threads' waits are read when something ends, as they matter only then.
        if (work.cpuSince(currentStart).compareTo(limits.testCpu()) > 0) {
            return ending(Kind.OVER_BUDGET, running, isTest, work.read());
        }
        long wall = System.nanoTime() - currentSince;
        if (wall >= limits.testWall().toNanos()) {
            return ending(Kind.BACKSTOP, running, isTest, work.read());
        }
        if (halfway == null && wall >= limits.testWall().toNanos() / 2) {
            halfway = work.read();
        }
        return null;
    }

    private Ending ending(Kind kind, String running, boolean isTest) {
        return running == null || !running.equals(current) ? new Ending(kind, running, isTest, Duration.ZERO, null, Duration.ZERO)
                : ending(kind, running, isTest, work.read());
    }

    private Ending ending(Kind kind, String running, boolean isTest, JvmWork.Reading now) {
        Duration waited = now.longestWaitSince(halfway != null ? halfway : currentStart).orElse(null);
        return new Ending(kind, running, isTest, now.cpuSince(currentStart), waited, Duration.ofNanos(System.nanoTime() - currentSince));
    }
}
