package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The ports the kit hands its listeners are never the same twice in one JVM, even though port 0 offers the same one again. */
@Timeout(120)
class LoopbackPortsTests {

    private static final int MANY = 2_000;

    @Test
    @DisplayName("many ports reserved at once, from several threads, are all distinct; as many bare probes of port 0 learn some port twice")
    void manyPortsReservedAtOnceAreAllDistinct() throws Exception {
        ConcurrentLinkedQueue<Integer> reserved = new ConcurrentLinkedQueue<>();
        List<Thread> threads = IntStream.range(0, 4).mapToObj(t -> new Thread(() -> {
            for (int i = 0; i < MANY / 4; i++) {
                reserved.add(LoopbackPorts.reserve());
            }
        })).toList();
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }

        assertThat(new HashSet<>(reserved)).as("%d reserved ports, no number twice", MANY).hasSize(MANY);
        // The wrong case, the pattern the reservation replaces: among as many probes, the kernel offers some port again.
        List<Integer> probed = new ArrayList<>();
        for (int i = 0; i < MANY; i++) {
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                probed.add(probe.getLocalPort());
            }
        }
        Set<Integer> distinct = new HashSet<>(probed);
        assertThat(distinct).as("bare probes of port 0 learn %d distinct ports of %d: two listeners would get one port", distinct.size(), MANY)
                .hasSizeLessThan(MANY);
    }

    @Test
    @DisplayName("a reserved port is free when handed out: a listener binds it, and a second listener on it is refused")
    void aReservedPortIsFree() throws Exception {
        int port = LoopbackPorts.reserve();
        try (ServerSocket listener = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(listener.getLocalPort()).as("a listener on the reserved port").isEqualTo(port);
            // The wrong case: what an etcd meets when another process took its port first.
            assertThatThrownBy(() -> new ServerSocket(port, 1, InetAddress.getLoopbackAddress()).close())
                    .as("a second listener on port %d", port).isInstanceOf(BindException.class);
        }
    }
}
