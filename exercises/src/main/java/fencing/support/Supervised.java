package fencing.support;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child process that cannot outlive the JVM that started it.
 *
 * <p>The command runs under a small {@code sh} watchdog that ends it as soon as this JVM is gone,
 * even when this JVM is killed with SIGKILL and its shutdown hooks never run. {@link #close()} ends
 * the process and everything it started, and a shutdown hook does the same on a normal exit.
 */
public final class Supervised implements AutoCloseable {

    private static final String WATCHDOG =
            "\"$@\" & child=$!\n"
                    + "trap 'kill -CONT $child 2>/dev/null; kill $child 2>/dev/null; wait $child; exit 143' TERM INT HUP\n"
                    + "while kill -0 " + ProcessHandle.current().pid() + " 2>/dev/null && kill -0 $child 2>/dev/null; do\n"
                    + "  sleep 0.2\n"
                    + "done\n"
                    + "kill -CONT $child 2>/dev/null; kill $child 2>/dev/null\n"
                    + "wait $child\n";

    private final String name;
    private final Process watchdog;
    private final Thread hook;

    private Supervised(String name, Process watchdog) {
        this.name = name;
        this.watchdog = watchdog;
        this.hook = new Thread(this::stop, "stop " + name);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Starts {@code command} under the watchdog, with its output and errors appended to {@code log}.
     *
     * @param name    a short name for messages
     * @param command the program and its arguments
     * @param log     where the process's output goes
     */
    public static Supervised start(String name, List<String> command, File log) throws IOException {
        return start(name, new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log)));
    }

    /**
     * Starts the command of {@code builder} under the watchdog, with the builder's directory, environment and redirects.
     *
     * @param name    a short name for messages
     * @param builder the process to start; its command is wrapped, not changed
     */
    public static Supervised start(String name, ProcessBuilder builder) throws IOException {
        List<String> full = new ArrayList<>(List.of("sh", "-c", WATCHDOG, "watchdog"));
        full.addAll(builder.command());
        ProcessBuilder wrapped = new ProcessBuilder(full)
                .directory(builder.directory())
                .redirectErrorStream(builder.redirectErrorStream())
                .redirectInput(builder.redirectInput())
                .redirectOutput(builder.redirectOutput())
                .redirectError(builder.redirectError());
        wrapped.environment().clear();
        wrapped.environment().putAll(builder.environment());
        return new Supervised(name, wrapped.start());
    }

    /** Returns the process's output when its builder asked for a pipe. */
    public java.io.InputStream output() {
        return watchdog.getInputStream();
    }

    /** Returns the process the watchdog runs, once it has started. */
    public ProcessHandle child() {
        return watchdog.toHandle().children().findFirst()
                .orElseThrow(() -> new IllegalStateException(name + " is not running"));
    }

    /** Returns whether the supervised process is still running. */
    public boolean isAlive() {
        return watchdog.isAlive();
    }

    /** Waits up to {@code timeout} for the process to end by itself; returns whether it did. */
    public boolean awaitExit(Duration timeout) throws InterruptedException {
        return watchdog.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Ends the process and everything it started; waits until they are gone. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is already running or has run: the process is being stopped either way.
        }
    }

    private void stop() {
        List<ProcessHandle> family = new ArrayList<>();
        watchdog.toHandle().descendants().forEach(family::add);
        watchdog.destroy();
        family.forEach(ProcessHandle::destroy);
        if (!waitGone(family, Duration.ofSeconds(5))) {
            family.forEach(ProcessHandle::destroyForcibly);
            watchdog.destroyForcibly();
            waitGone(family, Duration.ofSeconds(5));
        }
    }

    private boolean waitGone(List<ProcessHandle> family, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!watchdog.isAlive() && family.stream().noneMatch(ProcessHandle::isAlive)) {
                return true;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return name + " (pid " + watchdog.pid() + ")";
    }
}
