package fencing.support;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A program the provisioning tests run in a child JVM, so that it sees an environment of its own.
 *
 * <p>It provides etcd with {@link Etcd#provide()} and prints {@code key=value} lines saying what it got.
 * Modes: {@code hold} keeps etcd until the JVM is killed; {@code put <key> <value>} writes one key and
 * closes. A failure ends the JVM with the exception's message on stderr.
 */
final class EtcdProbe {

    private EtcdProbe() {
    }

    public static void main(String[] args) throws Exception {
        Etcd etcd = Etcd.provide();
        System.out.println("endpoints=" + etcd.endpoints());
        System.out.println("origin=" + etcd.origin());
        System.out.println("pid=" + (etcd.pid().isPresent() ? String.valueOf(etcd.pid().getAsLong()) : "none"));
        System.out.println("workdir=" + etcd.workDir().map(Object::toString).orElse("none"));
        switch (args[0]) {
            case "hold" -> {
                System.out.println("state=holding");
                System.out.flush();
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
                System.out.println("done");
            }
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }
}
