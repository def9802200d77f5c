package fencing.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each member of an {@link EtcdCluster} keeps its data and how it is started: loopback ports of its own, one temporary
 * directory per member, one initial cluster.
 *
 * @param dirs     each member's directory, by name
 * @param commands each member's command line, by name, in start order
 */
record ClusterLayout(Map<String, Path> dirs, Map<String, List<String>> commands) {

    /** Lays out {@code size} members of {@code binary} with the given heartbeat and election timeout. */
    static ClusterLayout of(Path binary, int size, Duration heartbeat, Duration electionTimeout) {
        // A directory per member and none shared: each member's watchdog removes its own if this JVM dies.
        Map<String, Path> dirs = new LinkedHashMap<>();
        for (int i = 1; i <= size; i++) {
            try {
                dirs.put("member-" + i, Files.createTempDirectory("fencing-etcd-member-" + i + "-"));
            } catch (IOException e) {
                dirs.values().forEach(FileTrees::delete);
                throw new UncheckedIOException("could not create a directory for etcd member-" + i, e);
            }
        }
        List<String> names = new ArrayList<>();
        List<Integer> clientPorts = new ArrayList<>();
        List<String> peers = new ArrayList<>();
        for (int i = 1; i <= size; i++) {
            names.add("member-" + i);
            clientPorts.add(LoopbackPorts.reserve());
            peers.add("member-" + i + "=http://127.0.0.1:" + LoopbackPorts.reserve());
        }
        Map<String, List<String>> commands = new LinkedHashMap<>();
        String token = "fencing-" + java.util.UUID.randomUUID();
        for (int i = 0; i < size; i++) {
            String client = "http://127.0.0.1:" + clientPorts.get(i);
            String peer = peers.get(i).substring(peers.get(i).indexOf('=') + 1);
            commands.put(names.get(i), List.of(binary.toString(),
                    "--name", names.get(i),
                    "--data-dir", dirs.get(names.get(i)).resolve("data").toString(),
                    "--listen-client-urls", client, "--advertise-client-urls", client,
                    "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                    "--initial-cluster", String.join(",", peers),
                    "--initial-cluster-token", token,
                    "--initial-cluster-state", "new",
                    "--heartbeat-interval", Long.toString(heartbeat.toMillis()),
                    "--election-timeout", Long.toString(electionTimeout.toMillis()),
                    "--logger", "zap", "--log-level", "info"));
        }
        return new ClusterLayout(dirs, commands);
    }
}
