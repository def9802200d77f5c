package fencing.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/** What the process table says, for checks that nothing is left running. */
final class Processes {

    private Processes() {
    }

    /** Returns whether {@code pid} is running: alive and not a zombie waiting to be reaped. */
    static boolean running(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (Files.isDirectory(Path.of("/proc"))) {
            try {
                String text = Files.readString(stat);
                // The state follows the command name in parentheses, which may itself hold spaces.
                char state = text.substring(text.lastIndexOf(')') + 2).charAt(0);
                return state != 'Z' && state != 'X';
            } catch (IOException gone) {
                return false;
            }
        }
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** Returns the state letter of {@code pid} ({@code T} when stopped), or {@code ?} off Linux. */
    static char state(long pid) {
        try {
            String text = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return text.substring(text.lastIndexOf(')') + 2).charAt(0);
        } catch (IOException e) {
            return '?';
        }
    }

    /** Waits up to {@code timeout} until none of {@code pids} runs; returns those still running. */
    static List<Long> awaitGone(List<Long> pids, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Long> left = pids;
        while (System.nanoTime() < deadline) {
            left = pids.stream().filter(Processes::running).collect(Collectors.toList());
            if (left.isEmpty()) {
                return left;
            }
            Thread.sleep(50);
        }
        return left;
    }

    static String describe(long pid) {
        return pid + " " + ProcessHandle.of(pid).flatMap(handle -> handle.info().commandLine()).orElse("(gone)");
    }
}
