package fencing.grader.pipeline;

import fencing.grader.sandbox.Sandbox;
import fencing.support.Channel;
import fencing.support.LoopbackBridge;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** Decides whether a test JVM gets a network of its own, and carries into it the only ports it may reach. */
final class Network {

    /** What a report says when the submission's tests could use this machine's network. */
    static final String NETWORK_OPEN = "Network protection was off: the tests ran with this machine's network. Graded"
            + " as root on Linux (sudo), they run in a network namespace that reaches nothing but the grader and etcd.";

    private static final String NETWORK_OFF_FOR_ETCD = "Network protection was off: a network namespace reaches only this"
            + " machine's loopback, and etcd is elsewhere: ";

    private Network() {
    }

    /**
     * Returns the bridge that carries the channel's port and etcd's into the child's network namespace, or {@code null}
     * when the child shares this machine's network: as any user but root, or when etcd is not on this machine's loopback;
     * {@code note} is told why, in the report's words.
     */
    static LoopbackBridge bridge(Sandbox sandbox, Map<String, String> environment, Channel.Listener listener, Consumer<String> note)
            throws IOException {
        if (!sandbox.isolatesNetwork()) {
            note.accept(sandbox.limits().orElse(NETWORK_OPEN));
            return null;
        }
        String endpoints = environment.get("ETCD_ENDPOINTS");
        Optional<List<Integer>> etcdPorts = loopbackPorts(endpoints);
        if (etcdPorts.isEmpty()) {
            note.accept(NETWORK_OFF_FOR_ETCD + endpoints);
            return null;
        }
        List<Integer> ports = new ArrayList<>(List.of(listener.port()));
        ports.addAll(etcdPorts.get());
        return LoopbackBridge.outside(ports);
    }

    /** Returns the ports of {@code endpoints} (comma-separated URLs), or nothing when one is not on the loopback. */
    static Optional<List<Integer>> loopbackPorts(String endpoints) {
        List<Integer> ports = new ArrayList<>();
        if (endpoints == null || endpoints.isBlank()) {
            return Optional.of(ports);
        }
        for (String endpoint : endpoints.split(",")) {
            URI uri = URI.create(endpoint.strip());
            String host = uri.getHost();
            if (uri.getPort() < 0 || host == null || !(host.equals("127.0.0.1") || host.equals("localhost") || host.equals("[::1]"))) {
                return Optional.empty();
            }
            ports.add(uri.getPort());
        }
        return Optional.of(ports);
    }
}
