package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.support.ChildJvm;
import fencing.support.Supervised;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Where the lab cannot freeze a process (Windows outside WSL), the study stops at once and says where it runs. */
class StudyPlatformTests {

    @Test
    void onWindowsTheStudyStopsAtOnceNamingWhereItRuns() throws Exception {
        Result windows = study("Windows 11", "--help");

        assertThat(windows.exitCode).as("exit code of the study on Windows; it said:%n%s", windows.output).isEqualTo(3);
        assertThat(windows.output).as("what the study says on Windows")
                .contains("cannot run on Windows").contains("SIGSTOP").contains("Linux or macOS").contains("WSL")
                .doesNotContain("Usage");
    }

    @Test
    void onLinuxTheSameCommandRuns() throws Exception {
        Result linux = study("Linux", "--help");

        assertThat(linux.exitCode).as("exit code of study --help on Linux; it said:%n%s", linux.output).isZero();
        assertThat(linux.output).as("what study --help prints on Linux").contains("Usage").doesNotContain("cannot run on Windows");
    }

    private record Result(int exitCode, String output) {
    }

    /** Runs the study's main in a JVM of its own that reports {@code osName} as its operating system. */
    private static Result study(String osName, String... args) throws IOException, InterruptedException {
        Path log = Files.createTempFile("study-platform", ".log");
        try (Supervised study = ChildJvm.of(Study.class).systemProperty("os.name", osName).args(args).log(log)
                .start("study on " + osName)) {
            if (!study.awaitExit(Duration.ofSeconds(60))) {
                throw new IllegalStateException("the study on " + osName + " did not stop within 60 s");
            }
            return new Result(study.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
