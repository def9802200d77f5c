package fencing.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Carries chosen loopback TCP ports into a network namespace that has nothing but its own loopback, through Unix sockets.
 *
 * <p>A process in a new network namespace cannot reach anything outside it, which is the point: a submission's
 * tests must not reach the network. They must still reach the batch's etcd and the grader's {@link Channel}, both on
 * the host's loopback. Unix sockets are files, and files cross network namespaces. So, outside, {@link #outside} listens
 * on {@code DIR/PORT.sock} for each port and forwards every connection to {@code 127.0.0.1:PORT}; inside, the child JVM
 * calls {@link #insideFromProperty} first thing, which listens on {@code 127.0.0.1:PORT} of its own loopback for each
 * socket in {@code DIR} and forwards to it. The child's code connects to the same addresses as without the bridge.
 */
public final class LoopbackBridge implements AutoCloseable {

    /** The system property that names the bridge's directory in the child JVM. */
    public static final String PROPERTY = "fencing.support.bridge.dir";

    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final String SUFFIX = ".sock";

    private final List<AutoCloseable> open = new ArrayList<>();
    private final List<Integer> ports = new ArrayList<>();
    private final Path ownedDir;
    private volatile boolean closed;

    private LoopbackBridge(Path ownedDir) {
        this.ownedDir = ownedDir;
    }

    /**
     * Listens, in a new directory under {@code /tmp}, on one Unix socket per port, each forwarding to {@code 127.0.0.1:port}.
     *
     * <p>The sockets are open to every user: the submission's JVM runs as {@code nobody}.
     */
    public static LoopbackBridge outside(Collection<Integer> ports) throws IOException {
        // Short on purpose: a Unix socket's path may not exceed 107 bytes.
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "fencing-bridge-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        // Should the grader be stopped (Ctrl-C) before close(), the JVM's exit still removes the sockets, then the directory.
        dir.toFile().deleteOnExit();
        LoopbackBridge bridge = new LoopbackBridge(dir);
        try {
            for (int port : ports) {
                Path socket = dir.resolve(port + SUFFIX);
                ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
                bridge.keep(server);
                server.bind(UnixDomainSocketAddress.of(socket));
                socket.toFile().deleteOnExit();
                Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
                bridge.acceptLoop("bridge to port " + port, () -> End.of(server.accept()), () -> {
                    Socket to = new Socket();
                    try {
                        to.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), CONNECT_TIMEOUT_MILLIS);
                        return End.of(to);
                    } catch (IOException refused) {
                        to.close();
                        throw refused;
                    }
                });
            }
        } catch (IOException | RuntimeException e) {
            bridge.close();
            throw e;
        }
        return bridge;
    }

    /** Returns the loopback ports this side listens on: none outside, one per socket inside. */
    public List<Integer> ports() {
        return List.copyOf(ports);
    }

    /** Returns the directory to pass to the child as {@link #PROPERTY}. */
    public Path dir() {
        return ownedDir;
    }

    /**
     * In the child: the bridge's Unix socket for {@code port}, where {@link #PROPERTY} names a directory that has one.
     *
     * <p>A connection that must lose nothing when this JVM ends at once (the grader's {@link Channel}) takes this socket
     * directly: through the loopback port {@link #insideFromProperty} listens on, the bytes would pass a relay in this JVM,
     * and an exit can come before the relay has passed them on.
     */
    public static Optional<Path> socketFor(int port) {
        String dir = System.getProperty(PROPERTY, "");
        if (dir.isBlank()) {
            return Optional.empty();
        }
        Path socket = Path.of(dir, port + SUFFIX);
        return Files.exists(socket) ? Optional.of(socket) : Optional.empty();
    }

    /** In the child: bridges every socket of the directory named by {@link #PROPERTY}; nothing when the property is unset. */
    public static void insideFromProperty() throws IOException {
        String dir = System.getProperty(PROPERTY, "");
        if (dir.isBlank()) {
            return;
        }
        Map<Integer, Path> sockets = new TreeMap<>();
        try (Stream<Path> files = Files.list(Path.of(dir))) {
            files.filter(file -> file.getFileName().toString().endsWith(SUFFIX)).forEach(file -> {
                String name = file.getFileName().toString();
                sockets.put(Integer.parseInt(name.substring(0, name.length() - SUFFIX.length())), file);
            });
        }
        inside(sockets);
    }

    /** Listens on {@code 127.0.0.1:port} for each entry and forwards every connection to its Unix socket. */
    public static LoopbackBridge inside(Map<Integer, Path> sockets) throws IOException {
        LoopbackBridge bridge = new LoopbackBridge(null);
        try {
            for (Map.Entry<Integer, Path> entry : sockets.entrySet()) {
                ServerSocket server = new ServerSocket();
                bridge.keep(server);
                server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), entry.getKey()));
                bridge.ports.add(entry.getKey());
                bridge.acceptLoop("bridge from port " + entry.getKey(), () -> End.of(server.accept()),
                        () -> End.of(SocketChannel.open(UnixDomainSocketAddress.of(entry.getValue()))));
            }
        } catch (IOException | RuntimeException e) {
            bridge.close();
            throw e;
        }
        return bridge;
    }

    /** Opens one end of a connection: accepts it, or connects it. */
    private interface Open {
        End open() throws IOException;
    }

    /** Accepts connections until closed, and bridges each to a connection {@code connect} opens for it. */
    private void acceptLoop(String name, Open accept, Open connect) {
        daemon(name, () -> {
            while (!closed) {
                End from;
                try {
                    from = accept.open();
                } catch (IOException e) {
                    if (closed) {
                        return;
                    }
                    throw new UncheckedIOException(name + " stopped accepting connections", e);
                }
                try {
                    pipe(from, connect.open());
                } catch (IOException refused) {
                    // The client sees its connection end, as it would have seen the port refuse it.
                    closeQuietly(from);
                }
            }
        });
    }

    /** One end of a bridged connection: a TCP socket or a Unix socket channel. */
    private interface End extends AutoCloseable {
        int read(byte[] buffer) throws IOException;

        void write(byte[] buffer, int length) throws IOException;

        void shutdownOutput() throws IOException;

        @Override
        void close() throws IOException;

        static End of(Socket socket) throws IOException {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            return new End() {
                public int read(byte[] buffer) throws IOException {
                    return in.read(buffer);
                }

                public void write(byte[] buffer, int length) throws IOException {
                    out.write(buffer, 0, length);
                    out.flush();
                }

                public void shutdownOutput() throws IOException {
                    socket.shutdownOutput();
                }

                public void close() throws IOException {
                    socket.close();
                }
            };
        }

        // Not Channels.newInputStream/newOutputStream: on one blocking channel they share a lock, so a read
        // waiting for bytes would stop every write the other way.
        static End of(SocketChannel channel) {
            return new End() {
                public int read(byte[] buffer) throws IOException {
                    return channel.read(ByteBuffer.wrap(buffer));
                }

                public void write(byte[] buffer, int length) throws IOException {
                    ByteBuffer bytes = ByteBuffer.wrap(buffer, 0, length);
                    while (bytes.hasRemaining()) {
                        channel.write(bytes);
                    }
                }

                public void shutdownOutput() throws IOException {
                    channel.shutdownOutput();
                }

                public void close() throws IOException {
                    channel.close();
                }
            };
        }
    }

    /** Copies bytes both ways between {@code a} and {@code b}; each side's end of input ends the other's output. */
    private void pipe(End a, End b) {
        keep(a);
        keep(b);
        AtomicInteger running = new AtomicInteger(2);
        daemon("bridge copy", () -> copy(a, b, running));
        daemon("bridge copy", () -> copy(b, a, running));
    }

    private static void copy(End from, End to, AtomicInteger running) {
        byte[] buffer = new byte[16 * 1024];
        boolean clean = false;
        try {
            for (int n; (n = from.read(buffer)) >= 0; ) {
                to.write(buffer, n);
            }
            to.shutdownOutput();
            clean = true;
        } catch (IOException ended) {
            // One side closed or reset: the connection is over, and closing both ends below tells the other side.
        } finally {
            // The last direction to finish, or the first to fail, closes the connection.
            if (!clean || running.decrementAndGet() == 0) {
                closeQuietly(from);
                closeQuietly(to);
            }
        }
    }

    private static void closeQuietly(End end) {
        try {
            end.close();
        } catch (IOException alreadyClosed) {
            // Closing an end that has closed is nothing to report.
        }
    }

    private synchronized void keep(AutoCloseable closeable) {
        if (closed) {
            throw new UncheckedIOException(new IOException("the bridge is closed"));
        }
        open.add(closeable);
    }

    private static void daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops listening, ends every bridged connection and removes the sockets' directory. */
    @Override
    public synchronized void close() {
        closed = true;
        for (AutoCloseable closeable : open) {
            try {
                closeable.close();
            } catch (Exception alreadyClosed) {
                // Ending a connection that has ended is nothing to report.
            }
        }
        open.clear();
        if (ownedDir != null) {
            FileTrees.delete(ownedDir);
        }
    }
}
