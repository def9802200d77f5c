package fencing.support;

import io.etcd.jetcd.Client;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real etcd endpoint for tests, the grader and the labs, found or started the way this machine allows.
 *
 * <p>Tried in the order {@link EtcdSources} gives: {@code ETCD_ENDPOINTS} (an existing cluster, left running);
 * an {@code etcd} binary on {@code PATH}, started as a child process on loopback with a fast heartbeat so that
 * a 1 s lease really expires in about 1 s; a container of the official etcd image (or {@code ETCD_IMAGE})
 * through Testcontainers when a Docker engine answers. {@code KIT_ETCD} set to {@code binary} or
 * {@code container} forces one of the last two. Whatever this class starts, {@link #close()} stops, and a
 * watchdog stops it too if the JVM dies first.
 */
public final class Etcd implements EtcdEndpoints, AutoCloseable {

    /** Where etcd comes from when nothing is set. */
    public static final String DEFAULT_IMAGE = "gcr.io/etcd-development/etcd:v3.5.21";

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
    private static Etcd shared;
    /** The etcd binaries this JVM started and has not stopped: the process ID by endpoints. */
    private static final Map<String, Long> STARTED_HERE = new ConcurrentHashMap<>();

    private final String endpoints;
    private final String origin;
    private final AutoCloseable stopper;
    private final Supervised process;
    private final Path workDir;
    private final EtcdContainer container;

    private Etcd(String endpoints, String origin, AutoCloseable stopper, Supervised process, Path workDir, EtcdContainer container) {
        this.endpoints = endpoints;
        this.origin = origin;
        this.stopper = stopper;
        this.process = process;
        this.workDir = workDir;
        this.container = container;
        if (process != null) {
            STARTED_HERE.put(endpoints, process.pid());
        }
    }

    /**
     * Returns the process ID of the etcd binary this JVM started at {@code endpoints} and has not stopped, if it did: a
     * grader that started the etcd its tests use counts etcd's waits for a CPU with theirs, since a test kept waiting for
     * the answer of a starved etcd was starved too.
     */
    public static OptionalLong processServing(String endpoints) {
        Long pid = endpoints == null ? null : STARTED_HERE.get(endpoints);
        return pid == null ? OptionalLong.empty() : OptionalLong.of(pid);
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
     * @throws IllegalArgumentException if {@code KIT_ETCD} has a value other than {@code binary} or {@code container}
     * @throws IllegalStateException    if no etcd can be had here, with what to install
     */
    public static Etcd provide() {
        Map<String, String> env = System.getenv();
        List<EtcdSources.Source> order = EtcdSources.order(env);
        EtcdSources.Source source = EtcdSources.firstAvailable(env, EtcdContainer::dockerAnswers)
                .orElseThrow(() -> unavailable(whyNone(order)));
        return switch (source) {
            case EXISTING_CLUSTER -> new Etcd(String.join(",", env.get("ETCD_ENDPOINTS").trim().split("\\s*,\\s*")),
                    "the existing cluster in ETCD_ENDPOINTS", () -> { }, null, null, null);
            case BINARY -> startBinary(findBinary().orElseThrow());
            case CONTAINER -> startContainer(image());
        };
    }

    private static String whyNone(List<EtcdSources.Source> order) {
        if (order.equals(List.of(EtcdSources.Source.BINARY))) {
            return "KIT_ETCD=binary, but no etcd binary is on PATH.";
        }
        if (order.equals(List.of(EtcdSources.Source.CONTAINER))) {
            return "KIT_ETCD=container, but no Docker engine answers" + EtcdContainer.dockerHostNote() + ".";
        }
        return "Neither an etcd binary on PATH nor a Docker engine was found" + EtcdContainer.dockerHostNote()
                + ", and ETCD_ENDPOINTS is not set.";
    }

    /** Returns the etcd binary on {@code PATH}, if there is one. */
    public static Optional<Path> findBinary() {
        return EtcdSources.findBinary(System.getenv("PATH"));
    }

    /** Returns the image the container path uses: {@code ETCD_IMAGE} or {@link #DEFAULT_IMAGE}. */
    public static String image() {
        String image = System.getenv("ETCD_IMAGE");
        return image == null || image.isBlank() ? DEFAULT_IMAGE : image.trim();
    }

    /**
     * Starts {@code binary} as a single-member cluster on loopback; the caller closes it.
     *
     * <p>Its data and log live in a temporary directory that goes with the process.
     */
    public static Etcd startBinary(Path binary) {
        // The ports were free when reserved; another process may take one before etcd binds it.
        return EtcdStartUp.retryingTakenPorts(Duration.ZERO, () -> startBinaryOn(binary, LoopbackPorts.reserve(), LoopbackPorts.reserve()));
    }

    /** Starts {@code binary} once on the given ports; fails with {@link EtcdStartUp.PortTaken} if one of them is taken. */
    static Etcd startBinaryOn(Path binary, int clientPort, int peerPort) {
        Path workDir;
        try {
            workDir = Files.createTempDirectory("fencing-etcd-");
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a data directory for etcd", e);
        }
        Path log = workDir.resolve("etcd.log");
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        command.addAll(flags(workDir.resolve("data").toString(), clientPort, peerPort));
        Supervised process;
        try {
            process = Supervised.start("etcd", command, log.toFile(), workDir);
        } catch (IOException e) {
            FileTrees.delete(workDir);
            throw new UncheckedIOException("could not start " + binary, e);
        }
        String endpoint = "http://127.0.0.1:" + clientPort;
        EtcdStartUp.awaitHealthy(endpoint, process, log);
        return new Etcd(endpoint, "etcd binary " + binary + " (pid " + process.pid() + ")", process, process, workDir, null);
    }

    /**
     * Starts etcd in a container of {@code image} with host networking; the caller closes it.
     *
     * @throws IllegalStateException if no Docker engine answers, or etcd does not answer on loopback
     */
    public static Etcd startContainer(String image) {
        return EtcdStartUp.retryingTakenPorts(Duration.ZERO, () -> startContainerOnce(image));
    }

    private static Etcd startContainerOnce(String image) {
        int clientPort = LoopbackPorts.reserve();
        int peerPort = LoopbackPorts.reserve();
        String endpoint = "http://127.0.0.1:" + clientPort;
        EtcdContainer container = EtcdContainer.start(image, flags("/tmp/etcd-data", clientPort, peerPort), EtcdStartUp.START_TIMEOUT);
        // The log line says etcd is up inside the container; the kit needs it on this host's loopback.
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!EtcdStartUp.healthy(endpoint)) {
            if (System.nanoTime() > deadline) {
                EtcdStartUp.closeQuietlyAfterFailure(container);
                throw new IllegalStateException("etcd in container " + container.describe() + " is ready but does not"
                        + " answer on " + endpoint + ": this Docker engine may not support host networking"
                        + " (Docker Desktop needs it enabled in its settings); install an etcd binary instead.");
            }
            EtcdStartUp.sleep(Duration.ofMillis(25));
        }
        return new Etcd(endpoint, "container " + container.describe(), container, null, null, container);
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
                // Info level, because readiness in a container is a log line (see EtcdContainer).
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
    @Override
    public String endpoints() {
        return endpoints;
    }

    /** Says where this etcd comes from, for messages and evidence. */
    public String origin() {
        return origin;
    }

    /** Builds a jetcd client for this etcd; the caller closes it. */
    @Override
    public Client newClient() {
        return Client.builder()
                .endpoints(endpoints.split(","))
                .connectTimeout(CALL_TIMEOUT)
                .build();
    }

    /** Returns the pid of the etcd process this instance started, if it started one. */
    OptionalLong pid() {
        return process == null ? OptionalLong.empty() : OptionalLong.of(process.pid());
    }

    /** Returns the directory holding the started etcd's data and log, if it started a process. */
    Optional<Path> workDir() {
        return Optional.ofNullable(workDir);
    }

    /** Returns the id of the container this instance started, if it started one. */
    Optional<String> containerId() {
        return container == null ? Optional.empty() : Optional.of(container.id());
    }

    /**
     * Waits for one jetcd call, at most the kit's call timeout.
     *
     * @throws IllegalStateException if etcd failed the call, did not answer in time, or the wait was interrupted
     */
    public static <T> T await(Future<T> call) {
        return await(call, CALL_TIMEOUT);
    }

    /**
     * Waits for one jetcd call, at most {@code limit}.
     *
     * @throws IllegalStateException if etcd failed the call, did not answer in time, or the wait was interrupted
     */
    public static <T> T await(Future<T> call, Duration limit) {
        try {
            return call.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for etcd", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("etcd call failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            call.cancel(true);
            throw new IllegalStateException("etcd did not answer within " + limit.toSeconds() + " s", e);
        }
    }

    /** Stops what this class started; an existing cluster is left running. */
    @Override
    public void close() {
        if (process != null) {
            STARTED_HERE.remove(endpoints);
        }
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

    private static IllegalStateException unavailable(String why) {
        return new IllegalStateException(why + " The tests need a real etcd. Get one of:\n"
                + "  - Debian/Ubuntu: sudo apt-get install etcd-server   (./kit does this itself when run as root)\n"
                + "  - macOS:         brew install etcd\n"
                + "  - Docker:        a running Docker engine (the official image " + DEFAULT_IMAGE + ", or ETCD_IMAGE;\n"
                + "                   KIT_ETCD=container chooses it even when an etcd binary is present)\n"
                + "  - an existing cluster: export ETCD_ENDPOINTS=http://127.0.0.1:2379");
    }
}
