package fencing.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/** The connection under a {@link Channel}: reads that wait at most a given time, and whole writes. */
interface ChannelLink extends AutoCloseable {

    /** Reads into {@code buffer}; returns how many bytes, 0 if none came within {@code millis}, -1 at the end. */
    int read(byte[] buffer, int offset, int length, int millis) throws IOException;

    /** Writes all of {@code bytes}. */
    void write(byte[] bytes) throws IOException;

    @Override
    void close() throws IOException;

    /** A TCP connection on the loopback. */
    final class Tcp implements ChannelLink {

        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        Tcp(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
        }

        @Override
        public int read(byte[] buffer, int offset, int length, int millis) throws IOException {
            socket.setSoTimeout(Math.max(1, millis));
            try {
                return in.read(buffer, offset, length);
            } catch (SocketTimeoutException quiet) {
                return 0;
            }
        }

        @Override
        public void write(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /**
     * A Unix socket connection, non-blocking under two selectors, one for reads and one for writes, since a blocking
     * socket channel's read cannot wait for a time and would hold up a write from another thread.
     */
    final class Unix implements ChannelLink {

        private final SocketChannel channel;
        private final Selector readable;
        private final Selector writable;

        Unix(SocketChannel channel) throws IOException {
            this.channel = channel;
            channel.configureBlocking(false);
            this.readable = Selector.open();
            this.writable = Selector.open();
            channel.register(readable, SelectionKey.OP_READ);
            channel.register(writable, SelectionKey.OP_WRITE);
        }

        @Override
        public int read(byte[] buffer, int offset, int length, int millis) throws IOException {
            int read = channel.read(ByteBuffer.wrap(buffer, offset, length));
            if (read != 0) {
                return read;
            }
            readable.select(Math.max(1, millis));
            readable.selectedKeys().clear();
            return channel.read(ByteBuffer.wrap(buffer, offset, length));
        }

        @Override
        public void write(byte[] bytes) throws IOException {
            ByteBuffer left = ByteBuffer.wrap(bytes);
            while (left.hasRemaining()) {
                if (channel.write(left) == 0) {
                    // The parent reads slower than this side writes: wait until the socket takes more.
                    writable.select();
                    writable.selectedKeys().clear();
                }
            }
        }

        @Override
        public void close() throws IOException {
            try (readable; writable) {
                channel.close();
            }
        }
    }
}
