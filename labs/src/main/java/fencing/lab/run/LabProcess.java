package fencing.lab.run;

import fencing.support.Channel;
import fencing.support.ChildJvm;
import fencing.support.Supervised;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A lab process (worker A or the sink server): a child JVM under {@link Supervised}, spoken to over a {@link Channel}.
 *
 * <p>Its output goes to a log file; its messages ({@code M}) come over the channel and are all kept, in
 * order. It can be frozen with SIGSTOP, resumed with SIGCONT and killed with SIGKILL; {@link #close()}
 * resumes it if frozen and ends it, and a shutdown hook resumes it if the runner exits first.
 *
 * @param <M> the process's protocol
 */
public final class LabProcess<M> implements AutoCloseable {

    /** Thrown when the child reports an error or dies while the runner waits for it. */
    public static final class ChildFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ChildFailed(String message) {
            super(message);
        }
    }

    private final String name;
    private final Class<M> protocol;
    private final Function<M, Optional<String>> failure;
    private final Channel.Listener listener;
    private final Supervised process;
    private final Path log;
    private final List<M> seen = new ArrayList<>();
    private final Thread resumeOnExit;
    private Channel channel;
    private volatile boolean frozen;
    private boolean closed;

    private LabProcess(String name, Class<M> protocol, Function<M, Optional<String>> failure, Channel.Listener listener,
                       Supervised process, Path log) {
        this.name = name;
        this.protocol = protocol;
        this.failure = failure;
        this.listener = listener;
        this.process = process;
        this.log = log;
        this.resumeOnExit = new Thread(this::resumeIfFrozen, "resume " + name);
        Runtime.getRuntime().addShutdownHook(resumeOnExit);
    }

    /**
     * Starts {@code mainClass} in a child JVM on {@code classPath}, logging to {@code log}; returns at once.
     *
     * @param failure what a message says went wrong in the child, if it is an error report
     */
    public static <M> LabProcess<M> start(String name, Class<M> protocol, Function<M, Optional<String>> failure, String classPath,
                                   Class<?> mainClass, List<String> args, Path log) {
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            Channel.Listener listener = Channel.listen();
            try {
                Supervised process = ChildJvm.of(mainClass).classPath(classPath).args(args).channel(listener).log(log).start(name);
                return new LabProcess<>(name, protocol, failure, listener, process, log);
            } catch (IOException e) {
                listener.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name, e);
        }
    }

    /** Returns the child's name, e.g. {@code worker A}. */
    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    /** Returns the child JVM's pid. */
    public long pid() {
        return process.pid();
    }

    /** Returns every message seen so far, in order. */
    public List<M> seen() {
        return List.copyOf(seen);
    }

    /**
     * Waits for the next message of {@code kind}, keeping every message on the way.
     *
     * @throws ChildFailed if the child reports an error, dies, or says nothing of the kind within {@code timeout}
     */
    public <T extends M> T await(Class<T> kind, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String what = kind.getSimpleName();
        try {
            if (channel == null) {
                channel = listener.accept(process, timeout);
            }
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new ChildFailed(name + " did not say " + what + " within " + timeout.toMillis() + " ms; the end of its log ("
                            + log + "):\n" + lastLines(20));
                }
                Optional<M> message = channel.poll(protocol, Duration.ofNanos(left));
                if (message.isEmpty()) {
                    continue;
                }
                seen.add(message.get());
                Optional<String> failed = failure.apply(message.get());
                if (failed.isPresent()) {
                    throw new ChildFailed(name + " failed: " + failed.get() + "; its log: " + log);
                }
                if (kind.isInstance(message.get())) {
                    return kind.cast(message.get());
                }
            }
        } catch (IOException e) {
            throw new ChildFailed(name + " ended or broke its channel before saying " + what + " (" + e.getMessage()
                    + "); the end of its log (" + log + "):\n" + lastLines(20));
        }
    }

    /** Sends one message to the child. */
    public void send(Object message) {
        try {
            if (channel == null) {
                channel = listener.accept(process, Duration.ofSeconds(60));
            }
            channel.send(message);
        } catch (IOException e) {
            throw new ChildFailed("could not send " + message + " to " + name + ": " + e.getMessage());
        }
    }

    /** Freezes the child with SIGSTOP. */
    public void freeze() {
        frozen = true;
        Signals.send("STOP", pid());
    }

    /** Resumes the child with SIGCONT. */
    public void resume() {
        Signals.send("CONT", pid());
        frozen = false;
    }

    /** Returns whether the child was frozen with SIGSTOP and not resumed since. */
    public boolean frozen() {
        return frozen;
    }

    /** Returns whether the child's process still runs. */
    public boolean alive() {
        return process.isAlive();
    }

    /** Kills the child with SIGKILL, as a crash would, waits until it is gone, and closes it. */
    public void kill() {
        Signals.send("KILL", pid());
        try {
            if (!process.awaitExit(Duration.ofSeconds(5))) {
                throw new ChildFailed(this + " was still running 5 s after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChildFailed("interrupted while waiting for " + name + " to die");
        }
        close();
    }

    private void resumeIfFrozen() {
        if (frozen) {
            Signals.sendIfAlive("CONT", pid());
            frozen = false;
        }
    }

    private String lastLines(int count) {
        try {
            if (!Files.exists(log)) {
                return "(no log yet at " + log + ")";
            }
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - count), all.size()));
        } catch (IOException e) {
            return "(could not read " + log + ": " + e.getMessage() + ")";
        }
    }

    /** Resumes the child if it is frozen, ends it and everything it started, and closes the channel. */
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
                try {
                    if (channel != null) {
                        channel.close();
                    }
                    listener.close();
                } catch (IOException e) {
                    throw new UncheckedIOException("could not close the channel to " + name, e);
                } finally {
                    try {
                        Runtime.getRuntime().removeShutdownHook(resumeOnExit);
                    } catch (IllegalStateException shuttingDown) {
                        // The hook is running or has run; the child is being resumed either way.
                    }
                }
            }
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }
}
