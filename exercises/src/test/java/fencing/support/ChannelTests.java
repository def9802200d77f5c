package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A parent and a real child JVM talk in typed messages, and every way the talk can break ends in a clear error in time. */
@Timeout(120)
class ChannelTests {

    private static final Duration START = Duration.ofSeconds(30);

    @Test
    @DisplayName("A child's typed messages arrive as records, in order, and it answers the parent's")
    void childAndParentExchangeTypedMessages(@TempDir Path dir) throws Exception {
        try (Channel.Listener listener = Channel.listen();
             Supervised child = probe(listener, dir, "echo");
             Channel channel = listener.accept(child, START)) {
            ProbeMessage hello = channel.receive(ProbeMessage.class, START);
            channel.send(new ProbeMessage.Say("first"));
            channel.send(new ProbeMessage.Say("second"));
            ProbeMessage first = channel.receive(ProbeMessage.class, START);
            ProbeMessage second = channel.receive(ProbeMessage.class, START);
            channel.send(new ProbeMessage.Bye());

            assertThat(hello).as("the child's first message is its hello, with its own pid")
                    .isEqualTo(new ProbeMessage.Hello(child.pid(), ((ProbeMessage.Hello) hello).jvmFlags()));
            assertThat(first).as("the first echo").isEqualTo(new ProbeMessage.Echo("first"));
            assertThat(second).as("the second echo, after the first").isEqualTo(new ProbeMessage.Echo("second"));
            assertThat(child.awaitExit(START)).as("told bye, the child ends by itself").isTrue();
            assertThat(child.exitValue()).as("and exits with 0; its log:%n%s", log(dir)).isZero();
        }
    }

    @Test
    @DisplayName("Waiting for a message that does not come ends at the timeout, and the channel still works after it")
    void aQuietChildEndsTheWaitAtTheTimeout(@TempDir Path dir) throws Exception {
        try (Channel.Listener listener = Channel.listen();
             Supervised child = probe(listener, dir, "echo");
             Channel channel = listener.accept(child, START)) {
            channel.receive(ProbeMessage.class, START);
            long started = System.nanoTime();

            assertThatThrownBy(() -> channel.receive(ProbeMessage.class, Duration.ofMillis(300)))
                    .as("no message within 300 ms is a timeout that says so")
                    .isInstanceOf(SocketTimeoutException.class).hasMessageContaining("within 300 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the wait ends near its timeout")
                    .isBetween(Duration.ofMillis(250), Duration.ofSeconds(5));
            channel.send(new ProbeMessage.Say("still there"));
            assertThat(channel.receive(ProbeMessage.class, START)).as("a timeout loses nothing")
                    .isEqualTo(new ProbeMessage.Echo("still there"));
        }
    }

    @Test
    @DisplayName("A child that dies in the middle of a message is reported as closed mid-message, with what it had sent")
    void aChildDyingMidMessageIsReportedAsSuch(@TempDir Path dir) throws Exception {
        try (Channel.Listener listener = Channel.listen();
             Supervised child = probe(listener, dir, "half");
             Channel channel = listener.accept(child, START)) {

            assertThatThrownBy(() -> channel.receive(ProbeMessage.class, START))
                    .as("half a message and then the end is an error, not a message and not a timeout")
                    .isInstanceOf(Channel.Closed.class)
                    .hasMessageContaining("in the middle of a message").hasMessageContaining("cut sho");
        }
    }

    @Test
    @DisplayName("A child that never connects is a clear error within the timeout, and so is one that exits first")
    void aChildThatNeverConnectsIsAnErrorWithinTheTimeout(@TempDir Path dir) throws Exception {
        try (Channel.Listener listener = Channel.listen(); Supervised child = probe(listener, dir, "never")) {
            long started = System.nanoTime();

            assertThatThrownBy(() -> listener.accept(child, Duration.ofSeconds(2)))
                    .as("a child that never connects").isInstanceOf(SocketTimeoutException.class)
                    .hasMessageContaining("did not connect to its parent within 2000 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the wait ends near its timeout")
                    .isBetween(Duration.ofMillis(1900), Duration.ofSeconds(6));
        }
        try (Channel.Listener listener = Channel.listen(); Supervised child = probe(listener, dir, "exit")) {
            assertThatThrownBy(() -> listener.accept(child, START))
                    .as("a child that exits before connecting is reported at once, with its exit code")
                    .isInstanceOf(Channel.Closed.class).hasMessageContaining("exit code 3").hasMessageContaining("before it connected");
        }
    }

    @Test
    @DisplayName("A message with a field its protocol does not have is rejected, naming the field")
    void aMessageWithAnUnknownFieldIsRejected(@TempDir Path dir) throws Exception {
        try (Channel.Listener listener = Channel.listen();
             Supervised child = probe(listener, dir, "unknown-field");
             Channel channel = listener.accept(child, START)) {

            assertThatThrownBy(() -> channel.receive(ProbeMessage.class, START))
                    .as("the strict reader rejects what the protocol does not define")
                    .isInstanceOf(Channel.Malformed.class).hasMessageContaining("extra");
        }
    }

    @Test
    @DisplayName("A child started without a channel to connect to says so")
    void connectingWithoutAParentIsAClearError() {
        assertThatThrownBy(() -> Channel.connectToParent(Duration.ofSeconds(1)))
                .as("this JVM has no parent listening for it").hasMessageContaining(Channel.PORT_PROPERTY);
    }

    @Test
    @DisplayName("Polling returns nothing while a child is quiet, without waiting longer than asked")
    void pollingAQuietChildReturnsNothing(@TempDir Path dir) throws Exception {
        try (Channel.Listener listener = Channel.listen();
             Supervised child = probe(listener, dir, "echo");
             Channel channel = listener.accept(child, START)) {
            channel.receive(ProbeMessage.class, START);

            Optional<ProbeMessage> nothing = channel.poll(ProbeMessage.class, Duration.ofMillis(50));

            assertThat(nothing).as("no message was sent").isEmpty();
        }
    }

    @Test
    @DisplayName("A child in a network namespace of its own talks to the parent through the bridge's socket, and a halt right"
            + " after its sends loses none of them, even where a relay in its own JVM would never have passed them on")
    void aBridgedChildThatHaltsLosesNothing(@TempDir Path dir) throws Exception {
        try (Channel.Listener listener = Channel.listen();
             LoopbackBridge outside = LoopbackBridge.outside(java.util.List.of(listener.port()))) {
            // The child's channel port is one the child itself takes and never accepts on; its bridge socket, a second
            // name of the parent's. A channel that went through the loopback port would reach nothing.
            int stalled = LoopbackPorts.reserve();
            Files.createLink(outside.dir().resolve(stalled + ".sock"), outside.dir().resolve(listener.port() + ".sock"));
            try (Supervised child = ChildJvm.of(ChannelProbe.class).args("send-and-halt")
                         .systemProperty(Channel.PORT_PROPERTY, Integer.toString(stalled))
                         .systemProperty(LoopbackBridge.PROPERTY, outside.dir().toString())
                         .log(dir.resolve("child.log")).start("probe send-and-halt");
                 Channel channel = listener.accept(child, START)) {
                java.util.List<ProbeMessage> received = new java.util.ArrayList<>();
                assertThatThrownBy(() -> {
                    while (true) {
                        received.add(channel.receive(ProbeMessage.class, START));
                    }
                }).as("after its last message the halted child's channel is closed; its log:%n%s", log(dir))
                        .isInstanceOf(Channel.Closed.class);

                assertThat(received).as("what reached the parent of a child that halted right after sending; its log:%n%s", log(dir))
                        .containsExactly(new ProbeMessage.Hello(child.pid(), java.util.List.of()), new ProbeMessage.Echo("one"),
                                new ProbeMessage.Echo("two"), new ProbeMessage.Echo("three"));
            }
        }
    }

    @Test
    @DisplayName("Through the bridge's socket, a parent and child exchange messages and a quiet wait ends at its timeout")
    void aBridgedChildExchangesMessagesAndWaitsEndInTime(@TempDir Path dir) throws Exception {
        try (Channel.Listener listener = Channel.listen();
             LoopbackBridge outside = LoopbackBridge.outside(java.util.List.of(listener.port()));
             Supervised child = ChildJvm.of(ChannelProbe.class).args("echo").channel(listener)
                     .systemProperty(LoopbackBridge.PROPERTY, outside.dir().toString())
                     .log(dir.resolve("child.log")).start("probe echo");
             Channel channel = listener.accept(child, START)) {
            channel.receive(ProbeMessage.class, START);
            channel.send(new ProbeMessage.Say("through the socket"));

            assertThat(channel.receive(ProbeMessage.class, START)).as("the echo through the bridge's socket; the child's log:%n%s", log(dir))
                    .isEqualTo(new ProbeMessage.Echo("through the socket"));
            assertThat(channel.poll(ProbeMessage.class, Duration.ofMillis(50))).as("a quiet bridged child").isEmpty();
            channel.send(new ProbeMessage.Bye());
            assertThat(child.awaitExit(START)).as("told bye, the bridged child ends by itself").isTrue();
        }
    }

    static Supervised probe(Channel.Listener listener, Path dir, String mode) throws Exception {
        return ChildJvm.of(ChannelProbe.class).args(mode).channel(listener).log(dir.resolve("child.log")).start("probe " + mode);
    }

    private static String log(Path dir) throws Exception {
        Path log = dir.resolve("child.log");
        return Files.exists(log) ? Files.readString(log) : "(none)";
    }
}
