package fencing.lab.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The bridge the partition case cuts, between a client and a real echo server on the loopback interface. */
@Timeout(30)
class CuttableBridgeTests {

    /** How long a read waits for bytes a cut path must not pass: a miss proves nothing crossed while the path was cut. */
    private static final int SILENCE_MILLIS = 300;

    private ServerSocket echo;
    private CuttableBridge bridge;

    @BeforeEach
    void startEchoServerAndBridge() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread server = new Thread(() -> {
            while (!echo.isClosed()) {
                try {
                    Socket accepted = echo.accept();
                    Thread copy = new Thread(() -> {
                        try (accepted) {
                            accepted.getInputStream().transferTo(accepted.getOutputStream());
                        } catch (IOException gone) {
                            // The client or the bridge went: this echo ends with it.
                        }
                    });
                    copy.setDaemon(true);
                    copy.start();
                } catch (IOException closed) {
                    return;
                }
            }
        });
        server.setDaemon(true);
        server.start();
        bridge = CuttableBridge.to(new InetSocketAddress(InetAddress.getLoopbackAddress(), echo.getLocalPort()));
    }

    @AfterEach
    void stop() throws IOException {
        bridge.close();
        echo.close();
    }

    @Test
    @DisplayName("an open bridge passes bytes both ways")
    void anOpenBridgePassesBytesBothWays() throws IOException {
        try (Socket client = connect()) {
            send(client, "hello");
            assertThat(read(client, 5)).as("the echo of 'hello' through the open bridge").isEqualTo("hello");
        }
    }

    @Test
    @DisplayName("a cut bridge passes nothing and resets nothing; healed, it delivers what it held")
    void aCutHoldsBytesWithoutAnErrorAndAHealDeliversThem() throws IOException {
        try (Socket client = connect()) {
            send(client, "before");
            assertThat(read(client, 6)).as("the echo before the cut").isEqualTo("before");

            bridge.cut();
            send(client, "during");
            client.setSoTimeout(SILENCE_MILLIS);
            assertThatThrownBy(() -> client.getInputStream().read()).as("a read across the cut path: silence, not an error or an end")
                    .isInstanceOf(SocketTimeoutException.class);
            assertThat(bridge.isCut()).as("the bridge says it is cut").isTrue();

            bridge.heal();
            client.setSoTimeout(10_000);
            assertThat(read(client, 6)).as("the echo of what was sent during the cut, once healed").isEqualTo("during");
        }
    }

    @Test
    @DisplayName("a connection asked for during a cut is accepted but reaches nothing until the heal")
    void aNewConnectionDuringACutGoesNowhereUntilHealed() throws IOException {
        bridge.cut();
        try (Socket client = connect()) {
            send(client, "late");
            client.setSoTimeout(SILENCE_MILLIS);
            assertThatThrownBy(() -> client.getInputStream().read()).as("a read on a connection opened during the cut")
                    .isInstanceOf(SocketTimeoutException.class);
            bridge.heal();
            client.setSoTimeout(10_000);
            assertThat(read(client, 4)).as("the echo once healed").isEqualTo("late");
        }
    }

    @Test
    @DisplayName("closing the bridge ends every connection through it")
    void closingTheBridgeEndsItsConnections() throws IOException {
        try (Socket client = connect()) {
            send(client, "x");
            assertThat(read(client, 1)).as("the echo before the close").isEqualTo("x");
            bridge.close();
            client.setSoTimeout(10_000);
            int next;
            try {
                next = client.getInputStream().read();
            } catch (IOException reset) {
                next = -1;
            }
            assertThat(next).as("a read after the bridge closed: the end of the stream or a reset").isEqualTo(-1);
        }
    }

    @Test
    @DisplayName("an endpoint without a host or a port is refused, naming it")
    void anEndpointWithoutAPortIsRefused() {
        assertThatThrownBy(() -> CuttableBridge.toEach("http://127.0.0.1")).as("an endpoint without a port")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http://127.0.0.1");
    }

    private Socket connect() throws IOException {
        return new Socket(InetAddress.getLoopbackAddress(), bridge.port());
    }

    private static void send(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
    }

    private static String read(Socket socket, int bytes) throws IOException {
        socket.setSoTimeout(10_000);
        InputStream in = socket.getInputStream();
        return new String(in.readNBytes(bytes), StandardCharsets.UTF_8);
    }
}
