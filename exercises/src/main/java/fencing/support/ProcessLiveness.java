package fencing.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;

/**
 * Whether a process runs: it exists and is not a zombie.
 *
 * <p>A process that has exited stays in the process table until its parent reaps it; an orphan's new parent is the first
 * process of its container, and where that one reaps nothing (a CI job container, an autograder that execs {@code java})
 * the zombie stays for good. {@link ProcessHandle#isAlive()} counts such a zombie as alive, so every liveness check of the
 * kit asks here. On Linux the state letter of {@code /proc/PID/stat} says it: {@code Z} (zombie) and {@code X} (dead) are
 * gone. Where there is no state to read, the answer of {@link ProcessHandle} stands.
 */
public final class ProcessLiveness {

    private static final Path PROC = Path.of("/proc");

    private ProcessLiveness() {
    }

    /** Returns whether the process {@code pid} runs (stopped counts as running; a zombie does not). */
    public static boolean running(long pid) {
        return ProcessHandle.of(pid).map(ProcessLiveness::running).orElse(false);
    }

    /** Returns whether {@code process} runs (stopped counts as running; a zombie does not). */
    public static boolean running(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        // No state to read (no /proc, or one that hides other users' processes): the JDK's answer stands.
        // A zombie first thread may have threads that still run (a process on its way out, whose children are not yet
        // handed on): the process is gone only when every thread is.
        return !gone(state(process.pid())) || anyThreadRuns(process.pid());
    }

    private static boolean gone(char state) {
        return state == 'Z' || state == 'X';
    }

    private static boolean anyThreadRuns(long pid) {
        try (Stream<Path> threads = Files.list(PROC.resolve(Long.toString(pid)).resolve("task"))) {
            return threads.anyMatch(thread -> !gone(stateIn(thread.resolve("stat"))));
        } catch (IOException | UncheckedIOException noThreads) {
            // The process went while its threads were listed.
            return false;
        }
    }

    /** Returns the state letter of {@code pid} in {@code /proc/PID/stat} ({@code T} when stopped, {@code Z} a zombie), or {@code ?} if there is none. */
    public static char state(long pid) {
        return stateIn(PROC.resolve(Long.toString(pid)).resolve("stat"));
    }

    private static char stateIn(Path statFile) {
        try {
            String stat = Files.readString(statFile);
            // The state follows the command name in parentheses, which may itself hold spaces and parentheses.
            return stat.substring(stat.lastIndexOf(')') + 2).charAt(0);
        } catch (IOException | RuntimeException gone) {
            return '?';
        }
    }

    /**
     * Waits up to {@code timeout} until none of {@code processes} runs; returns those still running.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    public static List<ProcessHandle> awaitGone(Collection<ProcessHandle> processes, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<ProcessHandle> left = processes.stream().filter(ProcessLiveness::running).toList();
            if (left.isEmpty() || System.nanoTime() >= deadline) {
                return left;
            }
            Thread.sleep(20);
        }
    }
}
