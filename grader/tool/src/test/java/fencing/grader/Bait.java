package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.concurrent.atomic.AtomicInteger;

/** A listener on this machine's own non-loopback address that counts who reaches it: the hostile network entry's target. */
final class Bait implements AutoCloseable {

    private final ServerSocket server;
    private final AtomicInteger connections = new AtomicInteger();

    private Bait(ServerSocket server) {
        this.server = server;
        Thread accepting = new Thread(() -> {
            while (!server.isClosed()) {
                try (Socket ignored = server.accept()) {
                    connections.incrementAndGet();
                } catch (IOException closed) {
                    return;
                }
            }
        }, "bait");
        accepting.setDaemon(true);
        accepting.start();
    }

    /**
     * Listens on this machine's first non-loopback IPv4 address, and checks, from this JVM, that it can be reached;
     * returns {@code null} when the machine has no such address.
     */
    static Bait onThisMachinesAddress() throws IOException {
        InetAddress address = null;
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (isUsable(nic)) {
                address = Collections.list(nic.getInetAddresses()).stream().filter(Inet4Address.class::isInstance)
                        .findFirst().orElse(null);
                if (address != null) {
                    break;
                }
            }
        }
        if (address == null) {
            return null;
        }
        Bait bait = new Bait(new ServerSocket(0, 50, address));
        // The wrong case first: outside the sandbox the bait answers, so a zero count later is the sandbox's doing.
        try (Socket probe = new Socket()) {
            probe.connect(bait.address(), 2_000);
        }
        bait.awaitCount(1);
        bait.connections.set(0);
        return bait;
    }

    private static boolean isUsable(NetworkInterface nic) {
        try {
            return nic.isUp() && !nic.isLoopback();
        } catch (SocketException e) {
            return false;
        }
    }

    private void awaitCount(int count) throws IOException {
        for (int waited = 0; connections.get() < count && waited < 500; waited++) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while the bait waited for its probe");
            }
        }
        assertThat(connections.get()).as("connections to the bait at %s from the grader's own JVM, outside the sandbox",
                address()).isEqualTo(count);
    }

    /** Writes the bait's {@code host:port} in place of {@code @BAIT@} in {@code source}. */
    void plantIn(Path source) throws IOException {
        String text = Files.readString(source, StandardCharsets.UTF_8);
        assertThat(text).as("the placeholder in %s", source).contains("@BAIT@");
        Files.writeString(source, text.replace("@BAIT@", address().getAddress().getHostAddress() + ":" + address().getPort()),
                StandardCharsets.UTF_8);
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    int connections() {
        return connections.get();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
