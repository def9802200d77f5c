package fencing.support;

import io.etcd.jetcd.Client;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A real etcd endpoint for tests, the grader and the labs, found or started the way this machine allows.
 *
 * <p>Tried in this order: {@code ETCD_ENDPOINTS} (an existing cluster, left running); an {@code etcd}
 * binary on {@code PATH}, started as a child process on loopback with a fast heartbeat so that a
 * 1 s lease really expires in about 1 s; a container of the official etcd image (or
 * {@code ETCD_IMAGE}) through Testcontainers when a Docker engine answers. {@code KIT_ETCD} set to
 * {@code binary} or {@code container} forces one of the last two. Whatever this class starts,
 * {@link #close()} stops, and a watchdog stops it too if the JVM dies first.
 */
public final class Etcd implements AutoCloseable {

    /** Where etcd comes from when nothing is set. */
    public static final String DEFAULT_IMAGE = "gcr.io/etcd-development/etcd:v3.5.21";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
    private static Etcd shared;

    private final String endpoints;
    private final String origin;
    private final AutoCloseable stopper;

    private Etcd(String endpoints, String origin, AutoCloseable stopper) {
        this.endpoints = endpoints;
        this.origin = origin;
        this.stopper = stopper;
    }

    /**
     * Returns this JVM's etcd, provided on first use and stopped when the JVM exits.
     *
     * @throws IllegalStateException if no etcd can be had here, with what to install
     */
    public static synchronized Etcd shared() {
        if (shared == null) {
            shared = provide();
            Etcd started = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "stop shared etcd"));
        }
        return shared;
    }

    /**
     * Provides a new etcd endpoint, in the order this class describes; the caller closes it.
     *
     * @throws IllegalStateException if no etcd can be had here, with what to install
     */
    public static Etcd provide() {
        String existing = System.getenv("ETCD_ENDPOINTS");
        if (existing != null && !existing.isBlank()) {
            return new Etcd(existing.trim(), "the existing cluster in ETCD_ENDPOINTS", () -> { });
        }
        String forced = Optional.ofNullable(System.getenv("KIT_ETCD")).orElse("").trim().toLowerCase(Locale.ROOT);
        switch (forced) {
            case "binary":
                return startBinary(findBinary().orElseThrow(() -> unavailable("KIT_ETCD=binary, but no etcd binary is on PATH.")));
            case "container":
                return startContainer(image());
            case "":
                break;
            default:
                throw new IllegalArgumentException("KIT_ETCD must be 'binary' or 'container', got '" + forced + "'");
        }
        Optional<Path> binary = findBinary();
        if (binary.isPresent()) {
            return startBinary(binary.get());
        }
        if (EtcdContainer.dockerAnswers()) {
            return startContainer(image());
        }
        throw unavailable("Neither an etcd binary on PATH nor a Docker engine was found, and ETCD_ENDPOINTS is not set.");
    }

    /** Returns the etcd binary on {@code PATH}, if there is one. */
    public static Optional<Path> findBinary() {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        return Stream.of(path.split(File.pathSeparator))
                .filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, "etcd"))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /** Returns the image the container path uses: {@code ETCD_IMAGE} or {@link #DEFAULT_IMAGE}. */
    public static String image() {
        String image = System.getenv("ETCD_IMAGE");
        return image == null || image.isBlank() ? DEFAULT_IMAGE : image.trim();
    }

    /** Starts {@code binary} as a single-member cluster on loopback; the caller closes it. */
    public static Etcd startBinary(Path binary) {
        Path dataDir = null;
        try {
            dataDir = Files.createTempDirectory("fencing-etcd-");
            File log = dataDir.resolve("etcd.log").toFile();
            int clientPort = freePort();
            int peerPort = freePort();
            List<String> command = new ArrayList<>(List.of(binary.toString()));
            command.addAll(flags(dataDir.resolve("data").toString(), clientPort, peerPort));
            Supervised process = Supervised.start("etcd", command, log);
            String endpoint = "http://127.0.0.1:" + clientPort;
            Path data = dataDir;
            AutoCloseable stopper = () -> {
                process.close();
                deleteTree(data);
            };
            awaitHealthy(endpoint, process, log.toPath(), stopper);
            return new Etcd(endpoint, "etcd binary " + binary + " (pid " + process.child().pid() + ")", stopper);
        } catch (IOException e) {
            if (dataDir != null) {
                deleteTree(dataDir);
            }
            throw new UncheckedIOException("could not start " + binary, e);
        }
    }

    /** Starts etcd in a container of {@code image} with host networking; the caller closes it. */
    public static Etcd startContainer(String image) {
        int clientPort = freePort();
        int peerPort = freePort();
        EtcdContainer container = EtcdContainer.start(image, flags("/tmp/etcd-data", clientPort, peerPort), START_TIMEOUT);
        return new Etcd("http://127.0.0.1:" + clientPort, "container " + container.describe(), container);
    }

    /** The flags for a single-member cluster bound to loopback, with leases as short as 1 s. */
    static List<String> flags(String dataDir, int clientPort, int peerPort) {
        String client = "http://127.0.0.1:" + clientPort;
        String peer = "http://127.0.0.1:" + peerPort;
        return List.of(
                "--name", "fencing",
                "--data-dir", dataDir,
                "--listen-client-urls", client,
                "--advertise-client-urls", client,
                "--listen-peer-urls", peer,
                "--initial-advertise-peer-urls", peer,
                "--initial-cluster", "fencing=" + peer,
                // The minimum lease TTL is 1.5 election timeouts: with these, a 1 s lease stays 1 s.
                // Info level, because readiness in a container is the log line "ready to serve client requests".
                "--heartbeat-interval", "10",
                "--election-timeout", "100",
                "--logger", "zap",
                "--log-level", "info");
    }

    /**
     * Returns a key of its own for {@code name}, under {@code ETCD_KEY_PREFIX} when set.
     *
     * <p>Every caller gets a different key, so tests, graded submissions and lab runs that share one
     * etcd never see each other's locks.
     */
    public static String uniqueKey(String name) {
        String prefix = Optional.ofNullable(System.getenv("ETCD_KEY_PREFIX")).filter(p -> !p.isBlank()).orElse("fencing-kit");
        return prefix + "/" + name + "/" + java.util.UUID.randomUUID();
    }

    /** Returns the client URLs, comma-separated. */
    public String endpoints() {
        return endpoints;
    }

    /** Says where this etcd comes from, for messages and evidence. */
    public String origin() {
        return origin;
    }

    /** Builds a jetcd client for this etcd; the caller closes it. */
    public Client newClient() {
        return Client.builder()
                .endpoints(endpoints.split(","))
                .connectTimeout(CALL_TIMEOUT)
                .build();
    }

    /** Stops what this class started; an existing cluster is left running. */
    @Override
    public void close() {
        try {
            stopper.close();
        } catch (Exception e) {
            throw new IllegalStateException("could not stop " + origin, e);
        }
    }

    @Override
    public String toString() {
        return endpoints + " (" + origin + ")";
    }

    private static void awaitHealthy(String endpoint, Supervised process, Path log, AutoCloseable stopper) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                closeQuietlyAfterFailure(stopper);
                throw new IllegalStateException("etcd exited during start-up; its log:\n" + tail(log));
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

    private static void closeQuietlyAfterFailure(AutoCloseable stopper) {
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

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete " + root, e);
        }
    }

    private static IllegalStateException unavailable(String why) {
        return new IllegalStateException(why + " The tests need a real etcd. Get one of:\n"
                + "  - Debian/Ubuntu: sudo apt-get install etcd-server   (./kit does this itself when run as root)\n"
                + "  - macOS:         brew install etcd\n"
                + "  - Docker:        a running Docker engine (the official image " + DEFAULT_IMAGE + ", or ETCD_IMAGE)\n"
                + "  - an existing cluster: export ETCD_ENDPOINTS=http://127.0.0.1:2379");
    }
}
