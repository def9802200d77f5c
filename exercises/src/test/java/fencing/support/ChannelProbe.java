package fencing.support;

import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A child JVM for the launcher's and the channel's tests; its first argument says how it behaves.
 *
 * <p>{@code echo} says hello and echoes until told bye; {@code half} sends half a message and halts;
 * {@code never} never connects; {@code exit} exits with 3 at once; {@code unknown-field} sends a message
 * with a field its protocol does not have; {@code parent} and {@code bare-parent} start a {@code never}
 * child of their own, with and without the watchdog, say its pid, and wait to be killed; {@code zombie-family} starts a
 * supervised {@code sleep} that has a child zombie of its own, says the zombie's pid, and when told to closes the
 * {@code sleep} and says how that went; {@code send-and-halt} first takes the loopback port of its channel and never accepts
 * on it (a relay in its own JVM that never passes a byte on), then says hello, sends three echoes and halts.
 */
final class ChannelProbe {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private ChannelProbe() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "echo" -> echo();
            case "half" -> raw("{\"type\":\"echo\",\"text\":\"cut sho", true);
            case "unknown-field" -> raw("{\"type\":\"echo\",\"text\":\"x\",\"extra\":1}\n", false);
            case "never" -> Thread.sleep(Long.MAX_VALUE);
            case "exit" -> System.exit(3);
            case "parent" -> parent(true);
            case "bare-parent" -> parent(false);
            case "zombie-family" -> zombieFamily();
            case "send-and-halt" -> sendAndHalt();
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    private static void echo() throws Exception {
        try (Channel parent = Channel.connectToParent(TIMEOUT)) {
            parent.send(new ProbeMessage.Hello(ProcessHandle.current().pid(), ManagementFactory.getRuntimeMXBean().getInputArguments()));
            while (true) {
                ProbeMessage message = parent.receive(ProbeMessage.class, TIMEOUT);
                if (message instanceof ProbeMessage.Say say) {
                    parent.send(new ProbeMessage.Echo(say.text()));
                } else {
                    return;
                }
            }
        }
    }

    /** Writes {@code text} on the socket as it is, bypassing the channel, and halts if told to. */
    private static void raw(String text, boolean halt) throws Exception {
        int port = Integer.parseInt(System.getProperty(Channel.PORT_PROPERTY));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = socket.getOutputStream();
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
            if (halt) {
                Runtime.getRuntime().halt(1);
            }
            Thread.sleep(TIMEOUT.toMillis());
        }
    }

    private static void sendAndHalt() throws Exception {
        int port = Integer.parseInt(System.getProperty(Channel.PORT_PROPERTY));
        try (java.net.ServerSocket stalled = new java.net.ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
            Channel parent = Channel.connectToParent(TIMEOUT);
            parent.send(new ProbeMessage.Hello(ProcessHandle.current().pid(), java.util.List.of()));
            for (String text : java.util.List.of("one", "two", "three")) {
                parent.send(new ProbeMessage.Echo(text));
            }
            Runtime.getRuntime().halt(1);
        }
    }

    private static void zombieFamily() throws Exception {
        try (Channel parent = Channel.connectToParent(TIMEOUT)) {
            java.nio.file.Path pidFile = java.nio.file.Files.createTempDirectory("fencing-zombie-").resolve("pid");
            Supervised sleeper = SupervisedTests.zombieParent(pidFile);
            long zombie = SupervisedTests.zombieOf(sleeper, pidFile);
            parent.send(new ProbeMessage.Started(zombie));
            parent.receive(ProbeMessage.class, TIMEOUT);
            String outcome;
            try {
                sleeper.close();
                outcome = "closed";
            } catch (IllegalStateException e) {
                outcome = e.getMessage();
            }
            parent.send(new ProbeMessage.Echo(outcome + "; the orphaned zombie's state is " + ProcessLiveness.state(zombie)));
            FileTrees.delete(pidFile.getParent());
        }
    }

    private static void parent(boolean supervised) throws Exception {
        try (Channel parent = Channel.connectToParent(TIMEOUT)) {
            long pid;
            if (supervised) {
                pid = ChildJvm.of(ChannelProbe.class).args("never").start("grandchild").pid();
            } else {
                // The wrong case: a child started without the watchdog, which nothing ends when this JVM dies.
                pid = new ProcessBuilder(ChildJvm.of(ChannelProbe.class).args("never").command())
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start().pid();
            }
            parent.send(new ProbeMessage.Started(pid));
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
