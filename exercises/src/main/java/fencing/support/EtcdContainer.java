package fencing.support;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * The Testcontainers path of {@link Etcd}: etcd in a container on the host's network.
 *
 * <p>The container runs the command {@code etcd <flags>}, so the image needs {@code etcd} on its
 * {@code PATH} and no entrypoint: the official image qualifies, and so does the CI's local image.
 */
final class EtcdContainer implements AutoCloseable {

    /**
     * The log line etcd prints once it serves clients: "ready to serve client requests" (3.5 and later)
     * or, from 3.4 with the zap logger, which never prints that line, "serving client traffic insecurely".
     */
    private static final String READY = ".*(ready to serve client requests|serving client traffic insecurely).*";

    private final GenericContainer<?> container;
    private final String image;

    private EtcdContainer(GenericContainer<?> container, String image) {
        this.container = container;
        this.image = image;
    }

    /**
     * Returns whether a Docker engine answers.
     *
     * <p>A unix socket named in {@code DOCKER_HOST} is the engine the user chose, as for the
     * {@code docker} command: when it does not answer, neither does Docker, even though
     * Testcontainers would fall back to {@code /var/run/docker.sock}.
     */
    static boolean dockerAnswers() {
        return dockerHostSocket().filter(socket -> !accepts(socket)).isEmpty()
                && DockerClientFactory.instance().isDockerAvailable();
    }

    /** Returns a note for messages naming a {@code DOCKER_HOST} socket that does not answer, or "". */
    static String dockerHostNote() {
        return dockerHostSocket().filter(socket -> !accepts(socket))
                .map(socket -> " (DOCKER_HOST=unix://" + socket + " does not answer)")
                .orElse("");
    }

    private static Optional<Path> dockerHostSocket() {
        String host = System.getenv("DOCKER_HOST");
        if (host == null || !host.trim().startsWith("unix://")) {
            return Optional.empty();
        }
        return Optional.of(Path.of(URI.create(host.trim()).getPath()));
    }

    private static boolean accepts(Path socket) {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            return channel.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException refused) {
            return false;
        }
    }

    /**
     * Starts etcd with {@code flags} in a container of {@code image}, waiting for its readiness log line.
     *
     * <p>The image is pulled only when it is not already present (Testcontainers' default policy).
     */
    @SuppressWarnings("resource")
    static EtcdContainer start(String image, List<String> flags, Duration timeout) {
        if (!dockerAnswers()) {
            throw new IllegalStateException("no Docker engine answers" + dockerHostNote() + ", so etcd cannot run in a container here");
        }
        List<String> command = new ArrayList<>();
        command.add("etcd");
        command.addAll(flags);
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image))
                .withNetworkMode("host")
                .withCommand(command.toArray(String[]::new))
                .waitingFor(Wait.forLogMessage(READY, 1).withStartupTimeout(timeout));
        try {
            container.start();
        } catch (RuntimeException e) {
            String logs = logsOf(container);
            // A container that never became ready is still there; without Ryuk nothing else removes it.
            container.stop();
            if (logs.contains(EtcdStartUp.PORT_IN_USE)) {
                throw new EtcdStartUp.PortTaken("etcd in a container of " + image + " could not bind its port; its log:\n" + logs, e);
            }
            throw e;
        }
        return new EtcdContainer(container, image);
    }

    private static String logsOf(GenericContainer<?> container) {
        try {
            return container.getLogs();
        } catch (RuntimeException none) {
            // A container that was never created has no log; the start's own error says why.
            return "";
        }
    }

    String id() {
        return container.getContainerId();
    }

    String describe() {
        return image + " (" + id().substring(0, 12) + ")";
    }

    /** Stops and removes the container. */
    @Override
    public void close() {
        container.stop();
    }
}
