package fencing.lab;

import fencing.support.ProcessLiveness;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** What the process table says, for checks that nothing is left running. */
final class Processes {

    private Processes() {
    }

    /** Waits up to {@code timeout} until none of {@code pids} runs; returns those still running. */
    static List<Long> awaitGone(List<Long> pids, Duration timeout) throws InterruptedException {
        List<ProcessHandle> handles = pids.stream().map(ProcessHandle::of).flatMap(Optional::stream).toList();
        return ProcessLiveness.awaitGone(handles, timeout).stream().map(ProcessHandle::pid).toList();
    }

    static String describe(long pid) {
        return pid + " " + ProcessHandle.of(pid).flatMap(handle -> handle.info().commandLine()).orElse("(gone)");
    }
}
