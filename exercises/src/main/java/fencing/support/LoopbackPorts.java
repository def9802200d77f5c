package fencing.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Loopback ports for the listeners the kit starts (etcd members, servers, bridges): each one was free when handed out,
 * and this JVM never hands out the same one twice.
 *
 * <p>A port is learnt by binding port 0 and closing the socket, so that the listener that needs it can bind it later.
 * Two such probes may learn the same port, which would give two etcd members one URL; hence every port handed out is
 * remembered for the life of the JVM. A port stays its owner's after the owner stops, since a member started again over
 * its data must come back where the others expect it. Another process may still take a port before its listener binds it:
 * the starts of etcd try again when that happens.
 */
public final class LoopbackPorts {

    /** How many probes in a row may learn a port handed out already before giving up. */
    private static final int PROBES = 1_000;

    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private LoopbackPorts() {
    }

    /**
     * Returns a loopback port that is free now and that this JVM has not handed out before.
     *
     * @throws IllegalStateException if the system offers only ports handed out already
     */
    public static int reserve() {
        for (int probe = 0; probe < PROBES; probe++) {
            int port;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException("no free loopback port", e);
            }
            if (HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("the system offered only loopback ports this JVM has handed out already, " + PROBES
                + " times in a row (" + HANDED_OUT.size() + " handed out)");
    }
}
