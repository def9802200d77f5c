package fencing.grader.pipeline;

import fencing.grading.RunQueueWaits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What a test JVM has done so far, as the operating system counts it: the CPU time of all its threads, and (on Linux) how
 * long its threads waited for a CPU they were ready to use.
 *
 * <p>Read by the grading process from outside the test JVM, so nothing the submission runs can change the figures.
 */
final class JvmWork {

    private static final Path PROC = Path.of("/proc");

    private final long pid;

    JvmWork(long pid) {
        this.pid = pid;
    }

    /**
     * One reading.
     *
     * @param cpuNanos the CPU time of all the JVM's threads, living and ended
     * @param waited   for each living thread (by its id), the time it spent ready to run but waiting for a CPU, or
     *                 {@code null} where the system does not say ({@code /proc/PID/task/TID/schedstat} on Linux)
     */
    record Reading(long cpuNanos, Map<String, Long> waited) {

        /** Returns the CPU used since {@code earlier}. */
        Duration cpuSince(Reading earlier) {
            return Duration.ofNanos(Math.max(0, cpuNanos - earlier.cpuNanos));
        }

        /**
         * Returns the longest time one thread waited for a CPU since {@code earlier}, if the system says: a starved test's
         * own thread waits for most of its run, while a deadlocked one's threads hardly ever want a CPU.
         */
        Optional<Duration> longestWaitSince(Reading earlier) {
            if (waited == null || earlier.waited == null) {
                return Optional.empty();
            }
            long longest = waited.entrySet().stream()
                    .mapToLong(thread -> thread.getValue() - earlier.waited.getOrDefault(thread.getKey(), 0L)).max().orElse(0);
            return Optional.of(Duration.ofNanos(Math.max(0, longest)));
        }
    }

    /** Reads the JVM's figures now; a JVM that has ended reads as zero CPU and no threads. */
    Reading read() {
        return new Reading(cpuNanos(), waited());
    }

    /** Returns the CPU the JVM used since {@code earlier}: cheaper than a whole reading. */
    Duration cpuSince(Reading earlier) {
        return new Reading(cpuNanos(), null).cpuSince(earlier);
    }

    private long cpuNanos() {
        return ProcessHandle.of(pid).flatMap(handle -> handle.info().totalCpuDuration()).map(Duration::toNanos).orElse(0L);
    }

    private Map<String, Long> waited() {
        return RunQueueWaits.read(PROC.resolve(Long.toString(pid)).resolve("task")).orElse(null);
    }
}
