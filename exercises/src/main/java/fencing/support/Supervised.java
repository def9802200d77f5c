package fencing.support;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child process that cannot outlive the JVM that started it.
 *
 * <p>The command runs under a small {@code sh} watchdog that ends it as soon as this JVM is gone,
 * even when this JVM is killed with SIGKILL and its shutdown hooks never run; the watchdog then also
 * removes the process's work directory. {@link #close()} ends the process and everything it started
 * and removes the work directory, and a shutdown hook does the same on a normal exit.
 */
public final class Supervised implements AutoCloseable {

    private static final Duration GRACE = Duration.ofSeconds(5);

    /*
     * Arguments: $1 the log ("" to pass the output through), $2 the work directory to remove if this
     * JVM dies ("" for none), then the command. The first line on stdout is the command's pid. The watchdog's
     * standard input is a pipe this JVM holds open and never writes to: a JVM that ends, even by SIGKILL, which sends
     * no signal to anyone, closes it, and a reader that then sees the end of the file signals the watchdog. Nothing
     * polls. A SIGSTOPped command gets SIGCONT so that SIGTERM can reach it, and SIGKILL if it ignores SIGTERM for 5 s.
     *
     * The order matters. The reader is started before any trap is set, so that it never runs with the watchdog's
     * handler for SIGTERM (a SIGTERM caught there would be lost, and the reader would live on). Until the watchdog's
     * own handler is set, SIGUSR1 is ignored, and the reader repeats it until the watchdog is gone. The pid is written
     * last: whoever reads it may stop the watchdog at once.
     *
     * A zombie is gone (see ProcessLiveness): kill -0 succeeds on one, and a watchdog whose JVM died becomes one for good
     * where the container's first process reaps no orphans, which would keep its reader signalling it forever.
     */
    private static final String WATCHDOG = String.join("\n",
            "log=$1; dir=$2; shift 2",
            // The pipe moves to descriptor 3, which only the reader keeps; the command reads nothing.
            "exec 3<&0 </dev/null",
            "if [ -n \"$log\" ]; then \"$@\" 3<&- >>\"$log\" 2>&1 & else \"$@\" 3<&- 2>&1 & fi",
            "child=$!",
            // The command's PATH may name no tools at all (a test of a bare environment); the watchdog still needs sleep and rm.
            "PATH=\"$PATH:/usr/bin:/bin\"",
            "alive() {",
            "  kill -0 \"$1\" 2>/dev/null || return 1",
            "  { read -r stat <\"/proc/$1/stat\"; } 2>/dev/null || return 0",
            "  case ${stat##*) } in Z*|X*) return 1 ;; esac",
            "}",
            "trap '' USR1",
            "(while read -r _; do :; done; while alive $$ && kill -USR1 $$ 2>/dev/null; do sleep 0.1; done) <&3 &",
            "reader=$!",
            "exec 3<&-",
            "stop() {",
            "  kill -CONT \"$child\" 2>/dev/null; kill \"$child\" 2>/dev/null",
            "  i=0; while alive \"$child\" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done",
            "  kill -KILL \"$child\" 2>/dev/null; wait \"$child\"",
            "}",
            "trap 'stop; exit 143' TERM INT HUP",
            "trap 'stop; [ -z \"$dir\" ] || rm -rf \"$dir\"; exit 143' USR1",
            "echo \"$child\"",
            "wait \"$child\"; status=$?",
            "kill \"$reader\" 2>/dev/null",
            "exit $status",
            "");

    private final String name;
    private final Process watchdog;
    private final long pid;
    private final Path workDir;
    private final Thread hook;

    private Supervised(String name, Process watchdog, long pid, Path workDir) {
        this.name = name;
        this.watchdog = watchdog;
        this.pid = pid;
        this.workDir = workDir;
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
        return start(name, command, log, null);
    }

    /**
     * Starts {@code command} under the watchdog, and removes {@code workDir} once the process has ended.
     *
     * <p>The work directory goes whoever ends the process: {@link #close()}, the shutdown hook, or the
     * watchdog after this JVM died. It is kept when the process ends by itself, so that its log can
     * still be read; {@link #close()} removes it then.
     *
     * @param name    a short name for messages
     * @param command the program and its arguments
     * @param log     where the process's output goes
     * @param workDir a directory owned by the process, or {@code null} for none
     */
    public static Supervised start(String name, List<String> command, File log, Path workDir) throws IOException {
        List<String> full = new ArrayList<>(List.of("sh", "-c", WATCHDOG, "watchdog",
                log.getAbsolutePath(), workDir == null ? "" : workDir.toAbsolutePath().toString()));
        full.addAll(command);
        Process watchdog = new ProcessBuilder(full)
                .redirectError(ProcessBuilder.Redirect.appendTo(log))
                .start();
        String firstLine;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(watchdog.getInputStream(), StandardCharsets.US_ASCII))) {
            firstLine = out.readLine();
        }
        return new Supervised(name, watchdog, pidFrom(name, watchdog, firstLine, log.toString()), workDir);
    }

    /**
     * Starts the command of {@code builder} under the watchdog, in the builder's directory and environment,
     * with its output and errors passed through to {@link #output()}.
     *
     * @param name    a short name for messages
     * @param builder the process to start; its command is wrapped, not changed; its redirects are not used
     */
    public static Supervised start(String name, ProcessBuilder builder) throws IOException {
        return start(name, builder, null);
    }

    /**
     * Starts the command of {@code builder} under the watchdog, in the builder's directory and environment.
     *
     * @param name    a short name for messages
     * @param builder the process to start; its command is wrapped, not changed; its redirects are not used
     * @param log     where the process's output and errors are appended, or {@code null} to pass them to {@link #output()}
     */
    public static Supervised start(String name, ProcessBuilder builder, File log) throws IOException {
        List<String> full = new ArrayList<>(List.of("sh", "-c", WATCHDOG, "watchdog", log == null ? "" : log.getAbsolutePath(), ""));
        full.addAll(builder.command());
        ProcessBuilder wrapped = new ProcessBuilder(full).directory(builder.directory());
        if (log == null) {
            wrapped.redirectErrorStream(true);
        } else {
            wrapped.redirectError(ProcessBuilder.Redirect.appendTo(log));
        }
        wrapped.environment().clear();
        wrapped.environment().putAll(builder.environment());
        Process watchdog = wrapped.start();
        // Byte by byte: everything after the pid line is the command's output, for output() to read.
        StringBuilder firstLine = new StringBuilder();
        InputStream out = watchdog.getInputStream();
        for (int c = out.read(); c >= 0 && c != '\n'; c = out.read()) {
            firstLine.append((char) c);
        }
        return new Supervised(name, watchdog, pidFrom(name, watchdog, firstLine.toString(), log == null ? "its output" : log.toString()), null);
    }

    private static long pidFrom(String name, Process watchdog, String firstLine, String where) throws IOException {
        if (firstLine == null || !firstLine.strip().matches("[0-9]+")) {
            watchdog.destroyForcibly();
            throw new IOException("the watchdog for " + name + " did not report a pid (got " + firstLine + "); see " + where);
        }
        return Long.parseLong(firstLine.strip());
    }

    /** Returns the process's output, after its pid line, when it was started from a {@link ProcessBuilder}. */
    public InputStream output() {
        return watchdog.getInputStream();
    }

    /** Returns the pid of the process the watchdog runs. */
    public long pid() {
        return pid;
    }

    /** Returns whether the supervised process is still running. */
    public boolean isAlive() {
        return watchdog.isAlive();
    }

    /** Waits up to {@code timeout} for the process to end by itself; returns whether it did. */
    public boolean awaitExit(Duration timeout) throws InterruptedException {
        return watchdog.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Returns the process's exit code, once it has ended by itself.
     *
     * @throws IllegalStateException if it is still running
     */
    public int exitValue() {
        if (watchdog.isAlive()) {
            throw new IllegalStateException(name + " (pid " + pid + ") is still running");
        }
        return watchdog.exitValue();
    }

    /**
     * Ends the process and everything it started, waits until they are gone, and removes the work directory.
     *
     * @throws IllegalStateException if the process is still there after SIGKILL
     */
    @Override
    public void close() {
        stop(true);
        removeHook();
    }

    /**
     * Ends the process and everything it started, like {@link #close()}, but leaves the work directory.
     *
     * <p>For a directory that outlives one process: the caller starts the next process over it at once, and
     * that process's watchdog and {@link #close()} remove it.
     *
     * @throws IllegalStateException if the process is still there after SIGKILL
     */
    public void closeKeepingWorkDir() {
        stop(false);
        removeHook();
    }

    private void removeHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is already running or has run: the process is being stopped either way.
        }
    }

    private void stop() {
        stop(true);
    }

    private synchronized void stop(boolean removeWorkDir) {
        List<ProcessHandle> family = new ArrayList<>();
        watchdog.toHandle().descendants().forEach(family::add);
        // Still ours if the watchdog itself was killed by someone else: it is not a descendant then.
        ProcessHandle.of(pid).filter(p -> !family.contains(p)).ifPresent(family::add);
        // The family first: destroying the watchdog closes its input, which its reader, still alive, would take for this JVM's end.
        family.forEach(ProcessHandle::destroy);
        watchdog.destroy();
        if (!waitGone(family, GRACE)) {
            family.forEach(ProcessHandle::destroyForcibly);
            watchdog.destroyForcibly();
            if (!waitGone(family, GRACE)) {
                throw new IllegalStateException(name + " (pid " + pid + ") is still running after SIGKILL");
            }
        }
        if (removeWorkDir && workDir != null) {
            FileTrees.delete(workDir);
        }
    }

    private boolean waitGone(List<ProcessHandle> family, Duration timeout) {
        List<ProcessHandle> all = new ArrayList<>(family);
        all.add(watchdog.toHandle());
        try {
            return ProcessLiveness.awaitGone(all, timeout).isEmpty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + pid + ")";
    }
}
