package fencing.grader.pipeline;

import fencing.grading.RunQueueWaits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a test JVM has done so far, as the operating system counts it: the CPU time of all its threads, and (on Linux) how
 * long its threads waited for a CPU they were ready to use.
 *
 * <p>Read by the grading process from outside the test JVM, so nothing the submission runs can change the figures.
 */
final class JvmWork {

    private static final Path PROC = Path.of("/proc");

    private final long pid;
    private final OptionalLong etcd;

    /** Reads the JVM {@code pid}, and no etcd. */
    JvmWork(long pid) {
        this(pid, OptionalLong.empty());
    }

    /** Reads the JVM {@code pid}, and the threads' waits of the etcd process {@code etcd} its tests use, where there is one. */
    JvmWork(long pid, OptionalLong etcd) {
        this.pid = pid;
        this.etcd = etcd;
    }

    /**
     * One reading.
     *
     * @param cpuNanos  the CPU time of all the JVM's threads, living and ended
     * @param waited    for each living thread (by its id), the time it spent ready to run but waiting for a CPU, or
     *                  {@code null} where the system does not say ({@code /proc/PID/task/TID/schedstat} on Linux)
     * @param alongside the same for the threads of the etcd process the tests use, when the grader started it (empty when
     *                  it did not); {@code null} when not read
     */
    record Reading(long cpuNanos, Map<String, Long> waited, Map<String, Long> alongside) {

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
            return Optional.of(Duration.ofNanos(longest(waited, earlier.waited)));
        }

        /**
         * Returns the longest time one thread of the JVM or of etcd waited for a CPU since {@code earlier}, if both readings
         * have both: a test whose etcd call timed out while etcd stood in the run queue was starved as surely as one whose
         * own thread did.
         */
        Optional<Duration> longestWaitWithEtcdSince(Reading earlier) {
            if (waited == null || earlier.waited == null || alongside == null || earlier.alongside == null) {
                return Optional.empty();
            }
            return Optional.of(Duration.ofNanos(Math.max(longest(waited, earlier.waited), longest(alongside, earlier.alongside))));
        }

        private static long longest(Map<String, Long> now, Map<String, Long> earlier) {
            return Math.max(0, now.entrySet().stream()
                    .mapToLong(thread -> thread.getValue() - earlier.getOrDefault(thread.getKey(), 0L)).max().orElse(0));
        }
    }

    /** Reads the JVM's figures now; a JVM that has ended reads as zero CPU and no threads. */
    Reading read() {
        return new Reading(cpuNanos(), waited(), null);
    }

    /** Reads the JVM's figures now, and the waits of etcd's threads too: a few more files. */
    Reading readWithEtcd() {
        Map<String, Long> etcdWaits = etcd.isEmpty() ? Map.of()
                : RunQueueWaits.read(PROC.resolve(Long.toString(etcd.getAsLong())).resolve("task")).orElse(new HashMap<>());
        return new Reading(cpuNanos(), waited(), etcdWaits);
    }

    /** Returns the CPU the JVM used since {@code earlier}: cheaper than a whole reading. */
    Duration cpuSince(Reading earlier) {
        return new Reading(cpuNanos(), null, null).cpuSince(earlier);
    }

    private long cpuNanos() {
        return ProcessHandle.of(pid).flatMap(handle -> handle.info().totalCpuDuration()).map(Duration::toNanos).orElse(0L);
    }

    private Map<String, Long> waited() {
        return RunQueueWaits.read(PROC.resolve(Long.toString(pid)).resolve("task")).orElse(null);
    }
}
