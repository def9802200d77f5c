package fencing.support;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/** Bringing up an etcd on this machine: waiting until it answers healthy, what its log says when it does not, and starting again when its port was taken. */
final class EtcdStartUp {

    /** How long a starting etcd has to answer healthy. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    /** How many times a start whose port another process took is tried in all. */
    static final int START_ATTEMPTS = 5;
    /** What etcd logs when it cannot bind a port. */
    static final String PORT_IN_USE = "address already in use";

    private EtcdStartUp() {
    }

    /**
     * Runs {@code start} again while it fails with {@link PortTaken}, at most {@link #START_ATTEMPTS} times in all, pausing
     * {@code pause} in between.
     *
     * <p>A start on ports of its own, reserved afresh, needs no pause. A start on ports it must keep (a member started
     * again over its data, which the others know by its URL) waits for whoever holds the port to let it go.
     */
    static <T> T retryingTakenPorts(Duration pause, Supplier<T> start) {
        for (int attempt = 1; ; attempt++) {
            try {
                return start.get();
            } catch (PortTaken e) {
                if (attempt == START_ATTEMPTS) {
                    throw new IllegalStateException(e.getMessage() + "\n(" + attempt + " starts, each with a port another process held)", e);
                }
                sleep(pause);
            }
        }
    }

    static void awaitHealthy(String endpoint, Supervised process, Path log) {
        awaitHealthy(endpoint, process, log, process);
    }

    /** Waits until {@code endpoint} answers healthy; on failure ends the process with {@code stopper} and throws. */
    static void awaitHealthy(String endpoint, Supervised process, Path log, AutoCloseable stopper) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                // Read the log before closing: closing removes the directory it is in.
                String lastLog = tail(log);
                closeQuietlyAfterFailure(stopper);
                if (lastLog.contains(PORT_IN_USE)) {
                    throw new PortTaken("etcd could not bind its port; its log:\n" + lastLog);
                }
                throw new IllegalStateException("etcd exited during start-up; its log:\n" + lastLog);
            }
            if (healthy(endpoint)) {
                return;
            }
            sleep(Duration.ofMillis(25));
        }
        String lastLog = tail(log);
        closeQuietlyAfterFailure(stopper);
        throw new IllegalStateException("etcd did not become healthy within " + START_TIMEOUT.toSeconds() + " s; its log:\n" + lastLog);
    }

    static boolean healthy(String endpoint) {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(endpoint + "/health").toURL().openConnection();
            connection.setConnectTimeout(500);
            connection.setReadTimeout(1000);
            try {
                return connection.getResponseCode() == 200
                        && new String(connection.getInputStream().readAllBytes()).contains("\"health\":\"true\"");
            } finally {
                connection.disconnect();
            }
        } catch (IOException notYet) {
            return false;
        }
    }

    static void closeQuietlyAfterFailure(AutoCloseable stopper) {
        try {
            stopper.close();
        } catch (Exception cleanup) {
            // The start-up failure is the error to report; a failed clean-up after it adds nothing.
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for etcd", e);
        }
    }

    /** A start-up that failed only because a chosen port was taken in the meantime. */
    static final class PortTaken extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        PortTaken(String message) {
            super(message);
        }

        PortTaken(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
