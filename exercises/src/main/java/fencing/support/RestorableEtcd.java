package fencing.support;

import io.etcd.jetcd.Client;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A single-member etcd of its own that can be snapshotted, stopped and brought back from a snapshot, on loopback.
 *
 * <p>Started from the {@code etcd} binary on {@code PATH}, like {@link Etcd}'s binary path, with the same
 * flags. {@link #snapshot} saves the keyspace with the maintenance API's snapshot. {@link #restore} stops etcd,
 * restores the snapshot into a fresh data directory with {@code etcdutl} or {@code etcdctl snapshot restore}
 * (whichever is on {@code PATH}; etcd 3.6 keeps restore in {@code etcdutl} only) and starts etcd over it on the
 * same ports, so that clients reconnect to the restored cluster. Where neither tool is found it brings up a
 * replacement cluster with an empty data directory instead, and says so. Everything lives in one temporary
 * directory that goes with {@link #close()}, or with the watchdog if the JVM dies first.
 */
public final class RestorableEtcd implements EtcdEndpoints, AutoCloseable {

    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(30);
    /** How long a restore waits before starting again on its ports when another process held one. */
    private static final Duration PORT_PAUSE = Duration.ofMillis(500);

    /** How a restore brought etcd back: with the snapshot's data, or as an empty replacement. */
    public enum How {
        /** {@code etcdutl} or {@code etcdctl snapshot restore} rebuilt the data directory from the snapshot. */
        SNAPSHOT_RESTORE,
        /** No restore tool was found: a replacement cluster started with an empty data directory. */
        REPLACEMENT_CLUSTER
    }

    /**
     * What one restore did.
     *
     * @param how         whether the snapshot was restored or an empty replacement started
     * @param description what was run, in words, for messages and evidence
     * @param dataDir     the data directory etcd runs on now
     * @param stoppedAtNanos {@link System#nanoTime()} when the old etcd was stopped
     * @param healthyAtNanos {@link System#nanoTime()} when the restored etcd answered healthy
     */
    public record Restored(How how, String description, Path dataDir, long stoppedAtNanos, long healthyAtNanos) {

        /** Returns the time from stopping the old etcd to the restored one answering, in milliseconds. */
        public long downMillis() {
            return Duration.ofNanos(healthyAtNanos - stoppedAtNanos).toMillis();
        }
    }

    private final Path binary;
    private final Path workDir;
    private final int clientPort;
    private final int peerPort;
    private Supervised process;
    private int generation = 1;
    private int starts;
    private int snapshots;

    private RestorableEtcd(Path binary, Path workDir, int clientPort, int peerPort) {
        this.binary = binary;
        this.workDir = workDir;
        this.clientPort = clientPort;
        this.peerPort = peerPort;
    }

    /**
     * Starts etcd from the binary on {@code PATH}; the caller closes it.
     *
     * @throws IllegalStateException if there is no etcd binary on {@code PATH}, or etcd does not start
     */
    public static RestorableEtcd start() {
        Path binary = Etcd.findBinary().orElseThrow(() -> new IllegalStateException(
                "a restorable etcd needs the etcd binary on PATH (" + System.getenv("PATH") + "), because it stops etcd and"
                        + " starts it again over a restored data directory; install etcd-server (Debian/Ubuntu) or etcd (brew)"));
        return start(binary);
    }

    /** Starts {@code binary} on loopback ports of its own; the caller closes it. */
    public static RestorableEtcd start(Path binary) {
        // The ports were free when reserved; another process may take one before etcd binds it.
        return EtcdStartUp.retryingTakenPorts(Duration.ZERO, () -> startOnce(binary));
    }

    private static RestorableEtcd startOnce(Path binary) {
        Path workDir;
        try {
            workDir = Files.createTempDirectory("fencing-etcd-restorable-");
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a work directory for etcd", e);
        }
        RestorableEtcd etcd = new RestorableEtcd(binary, workDir, LoopbackPorts.reserve(), LoopbackPorts.reserve());
        try {
            etcd.process = etcd.startOver(workDir.resolve("data-1"), false);
        } catch (RuntimeException e) {
            FileTrees.delete(workDir);
            throw e;
        }
        return etcd;
    }

    /** Returns the tool that restores a snapshot here: {@code etcdutl}, else {@code etcdctl}, on {@code PATH}. */
    public static Optional<Path> restoreTool() {
        for (String name : List.of("etcdutl", "etcdctl")) {
            Optional<Path> found = Stream.of(Optional.ofNullable(System.getenv("PATH")).orElse("").split(File.pathSeparator))
                    .filter(dir -> !dir.isBlank()).map(dir -> Path.of(dir, name))
                    .filter(file -> Files.isRegularFile(file) && Files.isExecutable(file)).findFirst();
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /** Returns the client URL; it stays the same across restores. */
    @Override
    public String endpoints() {
        return "http://127.0.0.1:" + clientPort;
    }

    /** Says where this etcd comes from, for messages and evidence. */
    public String origin() {
        return "etcd binary " + binary + " (pid " + process.pid() + "), restorable, data in " + workDir;
    }

    /** Builds a jetcd client for this etcd; the caller closes it. */
    @Override
    public Client newClient() {
        return Client.builder().endpoints(endpoints()).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Returns the pid of the etcd process running now. */
    public long pid() {
        return process.pid();
    }

    /** Returns the directory holding the data directories, snapshots and logs. */
    public Path workDir() {
        return workDir;
    }

    /**
     * Saves a snapshot of the whole keyspace through {@code client} (the maintenance API) and returns its file.
     *
     * @throws IllegalStateException if etcd did not send the snapshot
     */
    public Path snapshot(Client client) {
        Path file = workDir.resolve("snapshot-" + ++snapshots + ".db");
        try (OutputStream out = Files.newOutputStream(file)) {
            Etcd.await(client.getMaintenanceClient().snapshot(out));
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the snapshot " + file, e);
        }
        return file;
    }

    /**
     * Stops etcd and brings it back on the same ports from {@code snapshot}, in a fresh data directory.
     *
     * <p>With no restore tool on {@code PATH} the new etcd starts on an empty data directory instead: a
     * replacement cluster, which the result says.
     *
     * @throws IllegalArgumentException if {@code snapshot} is not a file
     * @throws IllegalStateException    if the restore tool fails or the restored etcd does not start
     */
    public Restored restore(Path snapshot) {
        if (!Files.isRegularFile(snapshot)) {
            throw new IllegalArgumentException("no snapshot file at " + snapshot + "; nothing was stopped");
        }
        return bringBack(Optional.of(snapshot), restoreTool());
    }

    /** Stops etcd and starts a replacement on the same ports with an empty data directory. */
    public Restored replace() {
        return bringBack(Optional.empty(), Optional.empty());
    }

    private Restored bringBack(Optional<Path> snapshot, Optional<Path> tool) {
        Path dataDir = workDir.resolve("data-" + ++generation);
        long stoppedAt = System.nanoTime();
        // The work directory holds the snapshots and the next data directory: it outlives this process.
        process.closeKeepingWorkDir();
        String description;
        How how;
        if (snapshot.isPresent() && tool.isPresent()) {
            runRestore(tool.get(), snapshot.get(), dataDir);
            how = How.SNAPSHOT_RESTORE;
            description = tool.get().getFileName() + " snapshot restore " + snapshot.get().getFileName() + " into " + dataDir.getFileName();
        } else {
            how = How.REPLACEMENT_CLUSTER;
            description = snapshot.isPresent()
                    ? "no etcdutl or etcdctl on PATH: a replacement cluster with an empty data directory " + dataDir.getFileName()
                    : "a replacement cluster with an empty data directory " + dataDir.getFileName();
        }
        // The same ports, which clients know: a port another process took meanwhile is waited for.
        process = EtcdStartUp.retryingTakenPorts(PORT_PAUSE, () -> startOver(dataDir, true));
        return new Restored(how, description, dataDir, stoppedAt, System.nanoTime());
    }

    private void runRestore(Path tool, Path snapshot, Path dataDir) {
        String peer = "http://127.0.0.1:" + peerPort;
        ProcessBuilder builder = new ProcessBuilder(tool.toString(), "snapshot", "restore", snapshot.toString(),
                "--data-dir", dataDir.toString(), "--name", "fencing",
                "--initial-cluster", "fencing=" + peer, "--initial-advertise-peer-urls", peer);
        builder.environment().put("ETCDCTL_API", "3");
        Path log = workDir.resolve("restore-" + generation + ".log");
        try (Supervised restore = Supervised.start(tool.getFileName().toString(), builder, log.toFile())) {
            if (!restore.awaitExit(TOOL_TIMEOUT)) {
                throw new IllegalStateException(tool + " snapshot restore did not finish within " + TOOL_TIMEOUT.toSeconds()
                        + " s; its output:\n" + read(log));
            }
            if (restore.exitValue() != 0) {
                throw new IllegalStateException(tool + " snapshot restore failed with exit code " + restore.exitValue()
                        + "; its output:\n" + read(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + tool, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while restoring the snapshot", e);
        }
    }

    /** Starts etcd over {@code dataDir}; if it fails, ends it, keeping the work directory for another start when asked to. */
    private Supervised startOver(Path dataDir, boolean keepWorkDir) {
        // A log per start: what a failed start said is not taken for what the next one says.
        Path log = workDir.resolve("etcd-" + ++starts + ".log");
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        command.addAll(Etcd.flags(dataDir.toString(), clientPort, peerPort));
        Supervised started;
        try {
            started = Supervised.start("etcd", command, log.toFile(), workDir);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + binary, e);
        }
        EtcdStartUp.awaitHealthy(endpoints(), started, log, keepWorkDir ? started::closeKeepingWorkDir : started);
        return started;
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    /** Stops etcd and deletes its data, snapshots and logs. */
    @Override
    public void close() {
        try {
            process.close();
        } finally {
            FileTrees.delete(workDir);
        }
    }

    @Override
    public String toString() {
        return endpoints() + " (" + origin() + ")";
    }
}
