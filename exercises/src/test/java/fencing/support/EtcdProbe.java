package fencing.support;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A program the provisioning tests run in a child JVM, so that it sees an environment of its own.
 *
 * <p>It provides etcd with {@link Etcd#provide()} and tells its parent what it got ({@link EtcdProbeMessage}).
 * Modes: {@code hold} keeps etcd until the JVM is killed; {@code put <key> <value>} writes one key and
 * closes. A failure ends the JVM with the exception's message in its output.
 */
final class EtcdProbe {

    private EtcdProbe() {
    }

    public static void main(String[] args) throws Exception {
        try (Channel parent = Channel.connectToParent(Duration.ofSeconds(30))) {
            Etcd etcd = Etcd.provide();
            parent.send(new EtcdProbeMessage.Provided(etcd.endpoints(), etcd.origin(),
                    etcd.pid().isPresent() ? etcd.pid().getAsLong() : null, etcd.workDir().map(Object::toString).orElse(null)));
            switch (args[0]) {
                case "hold" -> {
                    parent.send(new EtcdProbeMessage.Holding());
                    // Until killed: the test ends this JVM with SIGKILL.
                    Thread.sleep(Long.MAX_VALUE);
                }
                case "put" -> {
                    try (Client client = etcd.newClient()) {
                        client.getKVClient()
                                .put(bytes(args[1]), bytes(args[2]))
                                .get(5, TimeUnit.SECONDS);
                    }
                    etcd.close();
                    parent.send(new EtcdProbeMessage.Done());
                }
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
        }
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }
}
