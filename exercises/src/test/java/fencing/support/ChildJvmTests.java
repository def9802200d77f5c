package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Every child JVM starts with the kit's flags, and none outlives the JVM that started it, even one killed with SIGKILL. */
@Timeout(120)
class ChildJvmTests {

    private static final Duration START = Duration.ofSeconds(30);

    @Test
    @DisplayName("The child runs with the flags of child-jvm.args, and with the options asked for")
    void childRunsWithTheKitsFlags(@TempDir Path dir) throws Exception {
        try (Channel.Listener listener = Channel.listen();
             Supervised child = ChildJvm.of(ChannelProbe.class).args("echo").maxHeapMegabytes(200).channel(listener)
                     .log(dir.resolve("child.log")).start("probe");
             Channel channel = listener.accept(child, START)) {
            ProbeMessage.Hello hello = (ProbeMessage.Hello) channel.receive(ProbeMessage.class, START);

            assertThat(ChildJvm.flags()).as("the flags file lists the start-up flags")
                    .contains("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
            assertThat(hello.jvmFlags()).as("the child JVM runs with every flag of the file")
                    .containsAll(ChildJvm.flags());
            assertThat(hello.jvmFlags()).as("and with the heap limit asked for, ending at once when it runs out")
                    .contains("-Xmx200m", "-XX:+ExitOnOutOfMemoryError");
            channel.send(new ProbeMessage.Bye());
        }
    }

    @Test
    @DisplayName("The child's environment and output are the ones asked for")
    void childGetsItsEnvironmentAndItsLog(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("logs/child.log");
        try (Supervised child = ChildJvm.of("no.such.Main").environment("HOME", null).directory(dir).log(log).start("missing main")) {
            assertThat(child.awaitExit(START)).as("a JVM with no main class ends by itself").isTrue();
            assertThat(child.exitValue()).as("with an error exit code").isNotZero();
        }
        assertThat(Files.readString(log)).as("its error went to the log asked for, in a directory created for it")
                .contains("no.such.Main");
    }

    @Test
    @DisplayName("Killing a parent with SIGKILL ends the child it started; a child started without the watchdog would survive")
    void aChildDoesNotOutliveAParentKilledWithSigkill(@TempDir Path dir) throws Exception {
        long supervised = grandchildOfAKilledParent(dir, "parent");
        long bare = grandchildOfAKilledParent(dir, "bare-parent");
        try {
            assertThat(awaitGone(supervised, Duration.ofSeconds(10)))
                    .as("the child started with ChildJvm (pid %d) ends within seconds of its parent's SIGKILL", supervised).isTrue();
            assertThat(awaitGone(bare, Duration.ofSeconds(3)))
                    .as("the wrong case: a child started without the watchdog (pid %d) is still running", bare).isFalse();
        } finally {
            ProcessHandle.of(bare).ifPresent(ProcessHandle::destroyForcibly);
            ProcessHandle.of(supervised).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /** Starts a probe that starts a child of its own, kills the probe with SIGKILL, and returns the child's pid. */
    private static long grandchildOfAKilledParent(Path dir, String mode) throws Exception {
        try (Channel.Listener listener = Channel.listen();
             Supervised parent = ChildJvm.of(ChannelProbe.class).args(mode).channel(listener).log(dir.resolve(mode + ".log")).start(mode);
             Channel channel = listener.accept(parent, START)) {
            long grandchild = ((ProbeMessage.Started) channel.receive(ProbeMessage.class, START)).pid();
            assertThat(ProcessLiveness.running(grandchild)).as("the %s's child runs", mode).isTrue();
            ProcessHandle.of(parent.pid()).orElseThrow().destroyForcibly();
            assertThat(awaitGone(parent.pid(), Duration.ofSeconds(10))).as("the %s is gone after SIGKILL", mode).isTrue();
            return grandchild;
        }
    }

    private static boolean awaitGone(long pid, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!ProcessLiveness.running(pid)) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }
}
