package fencing.lab.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on the loopback interface, from a port of its own to one address, that the run can cut and heal: a
 * process that reaches the address only through it is cut off from it while its other paths stay open.
 *
 * <p>A cut holds bytes rather than closing connections, as a network that drops packets does: the sender sees no error,
 * only silence, until its own timeouts say otherwise; a connection asked for meanwhile is accepted but goes nowhere. A
 * heal passes on what was held, as TCP's retransmissions would once the path is back.
 *
 * <p>The grader's {@link fencing.support.LoopbackBridge} is another thing: it carries loopback ports into a network
 * namespace through Unix sockets, and is never cut.
 */
public final class CuttableBridge implements AutoCloseable {

    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final int BUFFER_BYTES = 16 * 1024;

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private boolean cut;
    private volatile boolean closed;

    private CuttableBridge(ServerSocket server, InetSocketAddress target) {
        this.server = server;
        this.target = target;
    }

    /** Opens a bridge to {@code target} on a free loopback port, chosen by the system when it binds, and starts relaying. */
    public static CuttableBridge to(InetSocketAddress target) throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        CuttableBridge bridge = new CuttableBridge(server, target);
        daemon("bridge to " + target, bridge::acceptLoop).start();
        return bridge;
    }

    /**
     * Opens one bridge to each of {@code endpoints}, comma-separated URLs such as {@code http://127.0.0.1:2379}; on a
     * failure, closes those it opened.
     *
     * @throws IllegalArgumentException if an endpoint names no host or port
     * @throws UncheckedIOException     naming the endpoint, if no loopback port could be bound for its bridge
     */
    public static List<CuttableBridge> toEach(String endpoints) {
        List<CuttableBridge> bridges = new ArrayList<>();
        try {
            for (String endpoint : endpoints.split(",")) {
                URI uri = URI.create(endpoint.trim());
                if (uri.getHost() == null || uri.getPort() < 0) {
                    throw new IllegalArgumentException("an endpoint to bridge needs a host and a port, e.g. http://127.0.0.1:2379: " + endpoint);
                }
                try {
                    bridges.add(to(new InetSocketAddress(uri.getHost(), uri.getPort())));
                } catch (IOException e) {
                    throw new UncheckedIOException("could not open a loopback bridge to " + endpoint, e);
                }
            }
        } catch (RuntimeException e) {
            closeAll(bridges);
            throw e;
        }
        return bridges;
    }

    /** Returns {@code bridges}' own addresses as endpoints, e.g. {@code http://127.0.0.1:41234}, comma-separated. */
    public static String endpoints(List<CuttableBridge> bridges) {
        return String.join(",", bridges.stream().map(b -> "http://127.0.0.1:" + b.port()).toList());
    }

    /** Closes every one of {@code bridges}. */
    public static void closeAll(List<CuttableBridge> bridges) {
        bridges.forEach(CuttableBridge::close);
    }

    /** Returns the loopback port this bridge listens on. */
    public int port() {
        return server.getLocalPort();
    }

    /** Cuts the path: from now on no byte crosses either way and no new connection reaches the target. */
    public void cut() {
        synchronized (gate) {
            cut = true;
        }
    }

    /** Heals the path: what was held crosses, and new connections reach the target again. */
    public void heal() {
        synchronized (gate) {
            cut = false;
            gate.notifyAll();
        }
    }

    /** Returns whether the path is cut now. */
    public boolean isCut() {
        synchronized (gate) {
            return cut;
        }
    }

    /** Closes the bridge and every connection through it; a process still using one sees it reset. */
    @Override
    public void close() {
        closed = true;
        synchronized (gate) {
            gate.notifyAll();
        }
        quietly(server);
        open.forEach(CuttableBridge::quietly);
    }

    private void acceptLoop() {
        while (!closed) {
            Socket from;
            try {
                from = server.accept();
            } catch (IOException e) {
                // Closed on purpose, or the listening socket failed: either way no one can connect through it any more.
                return;
            }
            open.add(from);
            daemon("bridge connection to " + target, () -> relay(from)).start();
        }
    }

    private void relay(Socket from) {
        Socket to = new Socket();
        open.add(to);
        try {
            awaitOpenPath();
            to.connect(target, CONNECT_TIMEOUT_MILLIS);
            daemon("bridge " + target + " upstream", () -> pump(from, to)).start();
            pump(to, from);
        } catch (IOException | InterruptedException e) {
            // The other end went, or the bridge closed: the connection ends, as it would on a real network.
            quietly(from);
            quietly(to);
        }
    }

    private void pump(Socket source, Socket sink) {
        byte[] buffer = new byte[BUFFER_BYTES];
        try {
            InputStream in = source.getInputStream();
            OutputStream out = sink.getOutputStream();
            int read;
            while ((read = in.read(buffer)) >= 0) {
                awaitOpenPath();
                out.write(buffer, 0, read);
                out.flush();
            }
            sink.shutdownOutput();
        } catch (IOException | InterruptedException e) {
            quietly(source);
            quietly(sink);
        }
    }

    private void awaitOpenPath() throws InterruptedException, IOException {
        synchronized (gate) {
            while (cut && !closed) {
                gate.wait();
            }
        }
        if (closed) {
            throw new IOException("the bridge to " + target + " is closed");
        }
    }

    private static Thread daemon(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void quietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception alreadyGone) {
            // Closing what may already be closed: nothing is lost either way.
        }
    }
}
