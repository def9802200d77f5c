package fencing.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Bringing up an etcd on this machine: free loopback ports, waiting until it answers healthy, and what its log says when it does not. */
final class EtcdStartUp {

    /** How long a starting etcd has to answer healthy. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private EtcdStartUp() {
    }

    static void awaitHealthy(String endpoint, Supervised process, Path log) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                // Read the log before closing: closing removes the directory it is in.
                String lastLog = tail(log);
                closeQuietlyAfterFailure(process);
                if (lastLog.contains("address already in use")) {
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
        closeQuietlyAfterFailure(process);
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

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
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
    }
}
