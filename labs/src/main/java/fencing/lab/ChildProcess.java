package fencing.lab;

import fencing.support.Supervised;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * A lab process (worker A or the sink server) under {@link Supervised}, spoken to in lines.
 *
 * <p>Its output goes to a log file that the runner follows; its standard input, when it takes
 * commands, is a named pipe the runner writes to (the supervisor runs children in the background,
 * where standard input would be {@code /dev/null}). It can be frozen with SIGSTOP, resumed with
 * SIGCONT and killed with SIGKILL; {@link #close()} resumes it if frozen and ends it, and a shutdown
 * hook does the same if the runner exits first.
 */
final class ChildProcess implements AutoCloseable {

    /** Thrown when the child reports an error or dies while the runner waits for it. */
    static final class ChildFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ChildFailed(String message) {
            super(message);
        }
    }

    private final String name;
    private final Supervised process;
    private final LogTail tail;
    private final Path stdin;
    private final CompletableFuture<OutputStream> commands;
    private final List<LogTail.Line> seen = Collections.synchronizedList(new ArrayList<>());
    private final Thread resumeOnExit;
    private final long startedAtMicros;
    private volatile long pid = -1;
    private volatile boolean frozen;
    private volatile boolean closed;

    private ChildProcess(String name, Supervised process, LogTail tail, Path stdin, CompletableFuture<OutputStream> commands,
                         long startedAtMicros) {
        this.name = name;
        this.process = process;
        this.tail = tail;
        this.stdin = stdin;
        this.commands = commands;
        this.startedAtMicros = startedAtMicros;
        this.resumeOnExit = new Thread(this::resumeIfFrozen, "resume " + name);
        Runtime.getRuntime().addShutdownHook(resumeOnExit);
    }

    /**
     * Starts {@code mainClass} in a lean child JVM on {@code classPath}, logging to {@code log}.
     *
     * @param takesCommands whether the child reads commands on standard input (through a named pipe)
     */
    static ChildProcess start(String name, String classPath, Class<?> mainClass, List<String> args, Path log, boolean takesCommands)
            throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        List<String> command = new ArrayList<>();
        Path stdin = null;
        CompletableFuture<OutputStream> commands = null;
        if (takesCommands) {
            stdin = log.resolveSibling(log.getFileName().toString().replaceFirst("\\.log$", "") + ".stdin");
            Files.deleteIfExists(stdin);
            mkfifo(stdin);
            // exec keeps one pid: the process the runner signals is the JVM itself.
            command.addAll(List.of("sh", "-c", "exec \"$@\" < \"$0\"", stdin.toString()));
            File pipe = stdin.toFile();
            // Opening a pipe's write end waits for its reader, so it happens off the caller's thread.
            commands = CompletableFuture.supplyAsync(() -> openForWriting(pipe), runnable -> {
                Thread thread = new Thread(runnable, "open " + pipe.getName());
                thread.setDaemon(true);
                thread.start();
            });
        }
        command.addAll(ChildJvm.command(classPath, mainClass, args));
        long started = Times.nowMicros();
        Supervised process = Supervised.start(name, command, log.toFile());
        return new ChildProcess(name, process, LogTail.follow(log), stdin, commands, started);
    }

    private static OutputStream openForWriting(File pipe) {
        try {
            return new FileOutputStream(pipe);
        } catch (IOException e) {
            throw new IllegalStateException("could not open " + pipe + " for writing", e);
        }
    }

    private static void mkfifo(Path path) throws IOException {
        try {
            Process mkfifo = new ProcessBuilder("mkfifo", "-m", "600", path.toString()).redirectErrorStream(true).start();
            if (!mkfifo.waitFor(5, TimeUnit.SECONDS) || mkfifo.exitValue() != 0) {
                mkfifo.destroyForcibly();
                throw new IOException("mkfifo " + path + " failed: " + new String(mkfifo.getInputStream().readAllBytes()).trim());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while creating " + path, e);
        }
    }

    /** Returns the child's name, e.g. {@code worker A}. */
    String name() {
        return name;
    }

    long startedAtMicros() {
        return startedAtMicros;
    }

    Path log() {
        return tail.file();
    }

    /**
     * Returns the child JVM's pid, as it reported it in its first line ({@code STARTED} or {@code LISTENING}).
     *
     * <p>The child says it itself because the supervisor's own short-lived processes (its {@code sleep}) are children too.
     */
    long pid() {
        if (pid < 0) {
            throw new IllegalStateException(name + " has not said its pid yet");
        }
        return pid;
    }

    /** Returns every protocol line seen so far, in order. */
    List<LogTail.Line> seen() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    /**
     * Waits for the next line whose word is {@code type}, keeping every line on the way.
     *
     * @throws ChildFailed if the child says ERROR, dies, or says nothing of the kind within {@code timeout}
     */
    LogTail.Line await(String type, Duration timeout) {
        return await(line -> line.type().equals(type), type, timeout);
    }

    LogTail.Line await(Predicate<LogTail.Line> wanted, String what, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw new ChildFailed(name + " did not say " + what + " within " + timeout.toMillis() + " ms; the end of its log ("
                            + tail.file() + "):\n" + tail.lastLines(20));
                }
                LogTail.Line line = tail.next(Math.min(left, 100));
                if (line == null) {
                    if (!process.isAlive()) {
                        LogTail.Line last = tail.next(50);
                        if (last == null) {
                            throw new ChildFailed(name + " exited before saying " + what + "; the end of its log (" + tail.file() + "):\n"
                                    + tail.lastLines(20));
                        }
                        line = last;
                    } else {
                        continue;
                    }
                }
                seen.add(line);
                if (line.type().equals("STARTED") || line.type().equals("LISTENING")) {
                    pid = Json.parse(line.json()).get("pid").asLong();
                }
                if (line.type().equals("ERROR")) {
                    var error = Json.parse(line.json());
                    throw new ChildFailed(name + " failed: " + error.path("message").asText() + " (" + error.path("type").asText()
                            + "); its log: " + tail.file());
                }
                if (wanted.test(line)) {
                    return line;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChildFailed("interrupted while waiting for " + name + " to say " + what);
        }
    }

    /** Sends one command line to the child's standard input. */
    void send(String command) {
        if (commands == null) {
            throw new IllegalStateException(name + " takes no commands");
        }
        try {
            OutputStream out = commands.get(10, TimeUnit.SECONDS);
            out.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (TimeoutException e) {
            throw new ChildFailed(name + " did not open its standard input within 10 s; its log:\n" + tail.lastLines(20));
        } catch (ExecutionException | IOException e) {
            throw new ChildFailed("could not send '" + command + "' to " + name + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChildFailed("interrupted while sending '" + command + "' to " + name);
        }
    }

    /** Freezes the child with SIGSTOP. */
    void freeze() {
        frozen = true;
        Signals.send("STOP", pid());
    }

    /** Resumes the child with SIGCONT. */
    void resume() {
        Signals.send("CONT", pid());
        frozen = false;
    }

    /** Kills the child with SIGKILL, as a crash would, and waits until it is gone. */
    void kill() {
        Signals.send("KILL", pid());
        try {
            if (!process.awaitExit(Duration.ofSeconds(5))) {
                throw new ChildFailed(name + " (pid " + pid + ") was still running 5 s after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChildFailed("interrupted while waiting for " + name + " to die");
        }
        close();
    }

    /** Returns whether the child is still running. */
    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits up to {@code timeout} for the child to end by itself. */
    boolean awaitExit(Duration timeout) throws InterruptedException {
        return process.awaitExit(timeout);
    }

    private void resumeIfFrozen() {
        if (frozen && pid > 0) {
            Signals.sendIfAlive("CONT", pid);
            frozen = false;
        }
    }

    /** Resumes the child if it is frozen, ends it and everything it started, and stops following its log. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            resumeIfFrozen();
        } finally {
            try {
                process.close();
            } finally {
                tail.close();
                closeCommands();
                try {
                    Runtime.getRuntime().removeShutdownHook(resumeOnExit);
                } catch (IllegalStateException shuttingDown) {
                    // The hook is running or has run; the child is being resumed either way.
                }
            }
        }
    }

    private void closeCommands() {
        if (commands == null) {
            return;
        }
        if (!commands.isDone()) {
            // Nobody opened the read end (the child died first): open it, so the waiting writer returns.
            try {
                FileInputStream unblock = new FileInputStream(stdin.toFile());
                try {
                    commands.get(5, TimeUnit.SECONDS).close();
                } finally {
                    unblock.close();
                }
            } catch (IOException | ExecutionException | TimeoutException e) {
                throw new IllegalStateException("could not close the pipe to " + name, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else if (!commands.isCompletedExceptionally()) {
            try {
                commands.join().close();
            } catch (IOException e) {
                throw new IllegalStateException("could not close the pipe to " + name, e);
            }
        }
        try {
            Files.deleteIfExists(stdin);
        } catch (IOException e) {
            throw new IllegalStateException("could not delete " + stdin, e);
        }
    }

    @Override
    public String toString() {
        return name + (pid > 0 ? " (pid " + pid + ")" : "");
    }
}
