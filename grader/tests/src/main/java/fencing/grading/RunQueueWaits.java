package fencing.grading;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How long each thread of a JVM has waited for a CPU it was ready to use, as Linux counts it in
 * {@code /proc/PID/task/TID/schedstat}: what tells a starved test from a stuck one, for the grader watching a test JVM from
 * outside and for a {@link Backstop} inside it.
 */
public final class RunQueueWaits {

    private RunQueueWaits() {
    }

    /**
     * Reads {@code tasks}, a {@code /proc/PID/task} folder: for each living thread but the JVM's compilers and collectors,
     * by its id, the nanoseconds it has spent on a run queue; empty where the system does not say.
     */
    public static Optional<Map<String, Long>> read(Path tasks) {
        if (!Files.isDirectory(tasks)) {
            return Optional.empty();
        }
        Map<String, Long> waited = new HashMap<>();
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                if (!isJvmsOwn(thread)) {
                    waited.put(thread.getFileName().toString(), runDelay(thread.resolve("schedstat")));
                }
            }
        } catch (IOException e) {
            // The JVM ended while its threads were being listed: none of them waits any more.
            return Optional.of(waited);
        }
        return Optional.of(waited);
    }

    /**
     * Whether the thread is one of the JVM's own compiler or collector threads: on a busy machine they wait for a CPU at
     * the start of any test, even one that then only waits on a lock, so their waits say nothing about the test's.
     */
    private static boolean isJvmsOwn(Path thread) {
        try {
            String name = Files.readString(thread.resolve("comm")).strip();
            return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre") || name.startsWith("GC Thread")
                    || name.equals("VM Thread");
        } catch (IOException e) {
            // A thread that ended between the listing and the read waits no more.
            return true;
        }
    }

    /** The second figure of a thread's {@code schedstat}: nanoseconds spent waiting on a run queue. */
    private static long runDelay(Path schedstat) {
        try {
            String[] fields = Files.readString(schedstat).trim().split("\\s+");
            return fields.length >= 2 ? Long.parseLong(fields[1]) : 0;
        } catch (IOException | NumberFormatException e) {
            // A thread that ended between the listing and the read waits no more.
            return 0;
        }
    }
}
