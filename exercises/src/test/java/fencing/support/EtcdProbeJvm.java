package fencing.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A child JVM running {@link EtcdProbe} with an environment of the test's choosing; {@link #close()} ends it. */
final class EtcdProbeJvm implements AutoCloseable {

    private final Channel.Listener listener;
    private final Supervised process;
    private final Path log;
    private final List<EtcdProbeMessage> received = new ArrayList<>();
    private Channel channel;
    private boolean closed;

    private EtcdProbeJvm(Channel.Listener listener, Supervised process, Path log) {
        this.listener = listener;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@link EtcdProbe} with {@code args}, this JVM's environment changed by {@code env}.
     *
     * @param env    variables to set; a {@code null} value removes the variable
     * @param outDir where the probe's output file goes
     */
    static EtcdProbeJvm start(Map<String, String> env, Path outDir, String... args) {
        try {
            Path log = Files.createTempFile(outDir, "probe-", ".log");
            Channel.Listener listener = Channel.listen();
            ChildJvm jvm = ChildJvm.of(EtcdProbe.class).args(args).channel(listener).log(log);
            env.forEach(jvm::environment);
            try {
                return new EtcdProbeJvm(listener, jvm.start("etcd probe"), log);
            } catch (IOException e) {
                listener.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the etcd probe", e);
        }
    }

    /** Waits up to {@code timeout} for a message of {@code kind}; empty if the probe ended or said nothing of the kind. */
    <T extends EtcdProbeMessage> Optional<T> await(Class<T> kind, Duration timeout) {
        Optional<T> seen = first(kind);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (seen.isEmpty() && !closed && System.nanoTime() < deadline) {
            Duration left = Duration.ofNanos(deadline - System.nanoTime());
            try {
                if (channel == null) {
                    channel = listener.accept(process, left);
                }
                channel.poll(EtcdProbeMessage.class, left).ifPresent(received::add);
            } catch (Channel.Closed ended) {
                closed = true;
            } catch (SocketTimeoutException quiet) {
                return Optional.empty();
            } catch (IOException e) {
                throw new UncheckedIOException("the etcd probe's channel failed; " + this, e);
            }
            seen = first(kind);
        }
        return seen;
    }

    /** Returns what the probe said it was provided, reading what it sent until it ended. */
    Optional<EtcdProbeMessage.Provided> provided() {
        return await(EtcdProbeMessage.Provided.class, Duration.ofSeconds(5));
    }

    private <T extends EtcdProbeMessage> Optional<T> first(Class<T> kind) {
        return received.stream().filter(kind::isInstance).map(kind::cast).findFirst();
    }

    /** Waits up to {@code timeout} for the JVM to end; returns its exit code, or empty if it is still running. */
    Optional<Integer> awaitExit(Duration timeout) throws InterruptedException {
        return process.awaitExit(timeout) ? Optional.of(process.exitValue()) : Optional.empty();
    }

    /** Kills the JVM with SIGKILL, as a crash or {@code kill -9} would, and waits until it is gone. */
    void kill() throws InterruptedException {
        ProcessHandle.of(process.pid()).ifPresent(ProcessHandle::destroyForcibly);
        process.awaitExit(Duration.ofSeconds(10));
    }

    /** Returns everything the probe printed, errors included. */
    String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Ends the JVM if it still runs, and everything it started (SIGTERM, then SIGKILL). */
    @Override
    public void close() throws IOException {
        try {
            process.close();
        } finally {
            if (channel != null) {
                channel.close();
            }
            listener.close();
        }
    }

    @Override
    public String toString() {
        return "etcd probe (pid " + process.pid() + "), said " + received + "; its output:\n" + output();
    }
}
