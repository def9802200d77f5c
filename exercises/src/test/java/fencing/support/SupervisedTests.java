package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A supervised process's work directory goes when the process is closed, and only then. */
@Timeout(120)
class SupervisedTests {

    private static final int ROUNDS = 20;

    @Test
    @DisplayName("Closing a process while keeping its work directory keeps it, even at once after the start; close() removes it")
    void closingKeepingTheWorkDirKeepsItEvenAtOnceAfterTheStart(@TempDir Path dir) throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        for (int round = 0; round < ROUNDS; round++) {
            Supervised process = Supervised.start("sleeper", List.of("sleep", "86400"), dir.resolve("sleeper.log").toFile(), work);
            long pid = process.pid();
            process.closeKeepingWorkDir();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                    .as("round %d: the process %d is gone after closeKeepingWorkDir()", round, pid).isFalse();
            // The watchdog acts on its own after the close returns, if at all: give it the time a stray rm would take.
            Thread.sleep(100);
            assertThat(work).as("round %d: closeKeepingWorkDir() keeps the work directory", round).isDirectory();
        }
        Supervised last = Supervised.start("sleeper", List.of("sleep", "86400"), dir.resolve("sleeper.log").toFile(), work);
        last.close();
        assertThat(work).as("the wrong case: close() removes the work directory").doesNotExist();
    }

    @Test
    @DisplayName("A process that ends by itself reports its exit code, and its work directory stays until close()")
    void aProcessThatEndsByItselfKeepsItsWorkDirUntilClosed(@TempDir Path dir) throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        try (Supervised process = Supervised.start("exit 3", List.of("sh", "-c", "exit 3"), dir.resolve("exit.log").toFile(), work)) {
            assertThat(process.awaitExit(Duration.ofSeconds(30))).as("sh -c 'exit 3' ends by itself").isTrue();
            assertThat(process.exitValue()).as("the watchdog passes on the command's exit code").isEqualTo(3);
            Thread.sleep(100);
            assertThat(work).as("a process that ended by itself keeps its work directory for its log").isDirectory();
        }
        assertThat(work).as("close() removes it").doesNotExist();
    }
}
