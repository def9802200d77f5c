package fencing.support;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

/**
 * A parent JVM and its child talking in typed messages: one JSON object a line over a loopback socket.
 *
 * <p>The parent {@link #listen() listens} on 127.0.0.1 on a free port and passes the port to the child
 * ({@link ChildJvm#channel(Listener)}); the child {@link #connectToParent(Duration) connects}. Messages are
 * records; a protocol is a sealed interface whose records Jackson tells apart by a {@code type} property
 * ({@code @JsonTypeInfo} and {@code @JsonSubTypes} on the interface). Reading is strict: an unknown or
 * missing field, a duplicate key or trailing content is an error. Every read has a timeout.
 *
 * <p>A child in a network namespace of its own ({@link LoopbackBridge}) connects through the bridge's Unix socket for the
 * parent's port, never through a relay in its own JVM: what {@link #send} wrote is then in a socket the parent's process
 * reads, so a child that ends at once ({@code System.exit}, {@code Runtime.halt}, a crash) loses none of what it sent.
 */
public final class Channel implements AutoCloseable {

    /** The system property that carries the parent's port to the child. */
    public static final String PORT_PROPERTY = "fencing.support.channel.port";
    /** The longest line read: a message longer than this is an error, not a reason to run out of memory. */
    static final int MAX_LINE_BYTES = 1 << 20;

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    /** Thrown when the other side closed the channel, or died, before a whole message came. */
    public static final class Closed extends EOFException {
        private static final long serialVersionUID = 1L;

        Closed(String message) {
            super(message);
        }
    }

    /** Thrown when a line is not a message of the expected protocol. */
    public static final class Malformed extends IOException {
        private static final long serialVersionUID = 1L;

        Malformed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final ChannelLink link;
    private final String peer;
    /** Held while a line is written, so that the lines of several threads never interleave. */
    private final Object sending = new Object();
    private byte[] pending = new byte[8192];
    private int pendingLength;

    private Channel(ChannelLink link, String peer) {
        this.link = link;
        this.peer = peer;
    }

    /** Starts listening for a child on 127.0.0.1, on a free port. */
    public static Listener listen() throws IOException {
        return new Listener(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
    }

    /**
     * Connects to the parent whose port is in the system property {@value #PORT_PROPERTY}: through the bridge's Unix
     * socket for that port where this JVM has one ({@link LoopbackBridge#socketFor(int)}), else on 127.0.0.1.
     *
     * @throws IOException if the property is missing or the parent does not answer within {@code timeout}
     */
    public static Channel connectToParent(Duration timeout) throws IOException {
        String port = System.getProperty(PORT_PROPERTY);
        if (port == null || !port.matches("[0-9]{1,5}")) {
            throw new IOException("no parent to talk to: the system property " + PORT_PROPERTY + " is " + port
                    + "; start this JVM with ChildJvm.channel(...)");
        }
        Optional<Path> bridged = LoopbackBridge.socketFor(Integer.parseInt(port));
        return bridged.isPresent() ? connect(bridged.get()) : connect(Integer.parseInt(port), timeout);
    }

    /** Connects to a parent through the Unix socket {@code socket}, which a {@link LoopbackBridge} outside forwards to it. */
    public static Channel connect(Path socket) throws IOException {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.connect(UnixDomainSocketAddress.of(socket));
            return new Channel(new ChannelLink.Unix(channel), "the parent");
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw new IOException("could not reach the parent through " + socket + ": " + e.getMessage(), e);
        }
    }

    /** Connects to a parent listening on 127.0.0.1:{@code port}, waiting at most {@code timeout}. */
    public static Channel connect(int port, Duration timeout) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), (int) Math.max(1, timeout.toMillis()));
            socket.setTcpNoDelay(true);
            return new Channel(new ChannelLink.Tcp(socket), "the parent");
        } catch (IOException e) {
            socket.close();
            throw new IOException("could not reach the parent on 127.0.0.1:" + port + " within " + timeout.toMillis() + " ms: "
                    + e.getMessage(), e);
        }
    }

    /** Sends {@code message} as one line; safe to call from several threads. */
    public void send(Object message) throws IOException {
        byte[] line;
        try {
            line = MAPPER.writeValueAsBytes(message);
        } catch (JsonProcessingException e) {
            throw new Malformed("could not write " + message.getClass().getSimpleName() + " as JSON: " + e.getOriginalMessage(), e);
        }
        byte[] withEnd = Arrays.copyOf(line, line.length + 1);
        withEnd[line.length] = '\n';
        synchronized (sending) {
            link.write(withEnd);
        }
    }

    /**
     * Returns the next message, or nothing if no whole message came within {@code wait}.
     *
     * <p>A message that arrives in parts across several calls is kept, never lost.
     *
     * @throws Closed    if the other side closed the channel (or died) before a whole message came
     * @throws Malformed if the line is not a {@code type}
     */
    public synchronized <T> Optional<T> poll(Class<T> type, Duration wait) throws IOException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            int newline = indexOf('\n');
            if (newline >= 0) {
                byte[] line = Arrays.copyOf(pending, newline);
                System.arraycopy(pending, newline + 1, pending, 0, pendingLength - newline - 1);
                pendingLength -= newline + 1;
                return Optional.of(parse(line, type));
            }
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return Optional.empty();
            }
            if (pendingLength == pending.length) {
                if (pending.length >= MAX_LINE_BYTES) {
                    throw new Malformed(peer + " sent a line longer than " + MAX_LINE_BYTES + " bytes", null);
                }
                pending = Arrays.copyOf(pending, Math.min(MAX_LINE_BYTES, pending.length * 2));
            }
            int read;
            try {
                read = link.read(pending, pendingLength, pending.length - pendingLength, (int) Math.min(Integer.MAX_VALUE, left));
            } catch (IOException reset) {
                throw closed(reset.getMessage());
            }
            if (read == 0) {
                continue;
            }
            if (read < 0) {
                throw closed(null);
            }
            pendingLength += read;
        }
    }

    /**
     * Returns the next message, waiting at most {@code timeout}.
     *
     * @throws SocketTimeoutException if none came in time
     * @throws Closed                 if the other side closed the channel (or died) before a whole message came
     * @throws Malformed              if the line is not a {@code type}
     */
    public <T> T receive(Class<T> type, Duration timeout) throws IOException {
        return poll(type, timeout).orElseThrow(() -> new SocketTimeoutException(
                peer + " sent no " + type.getSimpleName() + " within " + timeout.toMillis() + " ms"));
    }

    private Closed closed(String why) {
        String reason = why == null ? "" : " (" + why + ")";
        if (pendingLength > 0) {
            String part = new String(pending, 0, Math.min(pendingLength, 200), StandardCharsets.UTF_8);
            return new Closed(peer + " closed the channel in the middle of a message" + reason + "; it had sent: " + part);
        }
        return new Closed(peer + " closed the channel" + reason);
    }

    private int indexOf(int b) {
        for (int i = 0; i < pendingLength; i++) {
            if (pending[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private <T> T parse(byte[] line, Class<T> type) throws Malformed {
        try {
            return MAPPER.readValue(line, type);
        } catch (IOException e) {
            String text = new String(line, 0, Math.min(line.length, 500), StandardCharsets.UTF_8);
            String why = e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage();
            throw new Malformed(peer + " sent a line that is not a " + type.getSimpleName() + ": " + why + "; the line: " + text, e);
        }
    }

    /** Closes the socket; the other side's next read then reports {@link Closed}. */
    @Override
    public void close() throws IOException {
        link.close();
    }

    /** The parent's end before the child has connected. */
    public static final class Listener implements AutoCloseable {

        private static final Duration POLL = Duration.ofMillis(100);

        private final ServerSocket server;

        private Listener(ServerSocket server) {
            this.server = server;
        }

        /** Returns the port the child must connect to. */
        public int port() {
            return server.getLocalPort();
        }

        /** Returns the child's channel if it connects within {@code wait}, or nothing. */
        public Optional<Channel> accept(Duration wait) throws IOException {
            return accept(wait, "the child");
        }

        private Optional<Channel> accept(Duration wait, String peer) throws IOException {
            server.setSoTimeout((int) Math.max(1, wait.toMillis()));
            try {
                Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                return Optional.of(new Channel(new ChannelLink.Tcp(socket), peer));
            } catch (SocketTimeoutException notYet) {
                return Optional.empty();
            }
        }

        /**
         * Returns the channel of {@code child} once it connects.
         *
         * @throws IOException if the child ends before it connects, or does not connect within {@code timeout}
         */
        public Channel accept(Supervised child, Duration timeout) throws IOException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                Optional<Channel> channel = accept(POLL, child.toString());
                if (channel.isPresent()) {
                    return channel.get();
                }
                if (!child.isAlive()) {
                    throw new Closed(child + " ended (exit code " + child.exitValue() + ") before it connected to its parent");
                }
                if (System.nanoTime() >= deadline) {
                    throw new SocketTimeoutException(child + " did not connect to its parent within " + timeout.toMillis() + " ms");
                }
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
