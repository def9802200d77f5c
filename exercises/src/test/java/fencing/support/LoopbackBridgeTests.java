package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The bridge that lets a network-less child reach chosen loopback ports, tested on real sockets. */
@Timeout(30)
class LoopbackBridgeTests {

    @Test
    @DisplayName("bytes cross the bridge both ways, and closing it removes its sockets")
    void carriesBytesBothWays() throws Exception {
        try (ServerSocket echo = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread server = new Thread(() -> echoOnce(echo));
            server.setDaemon(true);
            server.start();
            Path dir;
            try (LoopbackBridge outside = LoopbackBridge.outside(List.of(echo.getLocalPort()));
                 LoopbackBridge inside = LoopbackBridge.inside(Map.of(LoopbackPorts.reserve(), socketOf(outside, echo.getLocalPort())))) {
                dir = outside.dir();
                int entry = inside.ports().get(0);
                try (Socket client = connect(entry)) {
                    client.setSoTimeout(10_000);
                    client.getOutputStream().write("fenced\n".getBytes(StandardCharsets.UTF_8));
                    client.shutdownOutput();
                    assertThat(new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                            .as("what the echo server on port %d sent back through the bridge", echo.getLocalPort())
                            .isEqualTo("fenced\n");
                }
            }
            assertThat(dir).as("the bridge's socket directory after close").doesNotExist();
        }
    }

    @Test
    @DisplayName("a connection to a port nothing listens on ends at once instead of hanging")
    void endsAConnectionTheTargetRefuses() throws Exception {
        int closedPort = LoopbackPorts.reserve();
        try (LoopbackBridge outside = LoopbackBridge.outside(List.of(closedPort));
             LoopbackBridge inside = LoopbackBridge.inside(Map.of(LoopbackPorts.reserve(), socketOf(outside, closedPort)));
             Socket client = connect(inside.ports().get(0))) {
            client.setSoTimeout(10_000);
            assertThat(client.getInputStream().read()).as("what a client reads when port %d refuses the bridge", closedPort)
                    .isEqualTo(-1);
        }
    }

    @Test
    @DisplayName("without the property, a child bridges nothing")
    void doesNothingWithoutTheProperty() throws IOException {
        assertThat(System.getProperty(LoopbackBridge.PROPERTY)).as("the bridge property in this JVM").isNull();
        LoopbackBridge.insideFromProperty();
    }

    private static Path socketOf(LoopbackBridge outside, int port) {
        Path socket = outside.dir().resolve(port + ".sock");
        assertThat(Files.exists(socket)).as("the bridge's socket for port %d", port).isTrue();
        return socket;
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
        return socket;
    }

    private static void echoOnce(ServerSocket server) {
        try (Socket socket = server.accept(); InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
