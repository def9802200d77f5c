package fencing.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/** The Testcontainers path of {@link Etcd}: etcd in a container on the host's network. */
final class EtcdContainer implements AutoCloseable {

    private final GenericContainer<?> container;
    private final String image;

    private EtcdContainer(GenericContainer<?> container, String image) {
        this.container = container;
        this.image = image;
    }

    /** Returns whether a Docker engine answers. */
    static boolean dockerAnswers() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    @SuppressWarnings("resource")
    static EtcdContainer start(String image, List<String> flags, Duration timeout) {
        if (!dockerAnswers()) {
            throw new IllegalStateException("no Docker engine answers, so etcd cannot run in a container here");
        }
        List<String> command = new ArrayList<>();
        command.add("etcd");
        command.addAll(flags);
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image))
                .withNetworkMode("host")
                .withCommand(command.toArray(String[]::new))
                .waitingFor(Wait.forLogMessage(".*ready to serve client requests.*", 1).withStartupTimeout(timeout));
        container.start();
        return new EtcdContainer(container, image);
    }

    String describe() {
        return image + " (" + container.getContainerId().substring(0, 12) + ")";
    }

    @Override
    public void close() {
        container.stop();
    }
}
