package fencing.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.function.Supplier;

/** Another process's listener, as etcd sees it: it holds a loopback port, and lets go of it once a log says etcd could not bind it. */
final class PortHolder implements AutoCloseable {

    private final ServerSocket socket;
    private final Thread watcher;
    private volatile boolean clashed;

    private PortHolder(int port, Supplier<String> log) {
        try {
            socket = new ServerSocket();
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
        } catch (IOException e) {
            throw new UncheckedIOException("could not hold port " + port, e);
        }
        watcher = new Thread(() -> watch(log), "holder of port " + port);
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Holds {@code port} until closed. */
    static PortHolder hold(int port) {
        return new PortHolder(port, null);
    }

    /** Holds {@code port} until {@code log} says etcd could not bind a port, then lets go of it. */
    static PortHolder holdUntilRefused(int port, Supplier<String> log) {
        return new PortHolder(port, log);
    }

    /** Returns whether the log said etcd could not bind, while this held the port. */
    boolean clashed() {
        return clashed;
    }

    private void watch(Supplier<String> log) {
        while (log != null && !socket.isClosed()) {
            if (log.get().contains(EtcdStartUp.PORT_IN_USE)) {
                clashed = true;
                close();
                return;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not let go of port " + socket.getLocalPort(), e);
        }
        watcher.interrupt();
    }
}
