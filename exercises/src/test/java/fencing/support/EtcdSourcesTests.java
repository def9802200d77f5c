package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link EtcdSources}: the order the kit tries etcd sources in, and the answer the kit's launcher gets from
 * running the class's source file, in a child process with an environment of the test's choosing.
 */
class EtcdSourcesTests {

    /** Where the launcher runs the class from, relative to this module. */
    private static final Path SOURCE_FILE = Path.of("src/main/java/fencing/support/EtcdSources.java");

    @TempDir
    Path dir;

    @Test
    @DisplayName("the launcher hears 'available' when ETCD_ENDPOINTS is set, even with no etcd binary or Docker command")
    void etcdEndpointsIsAnAvailableSource() throws Exception {
        Answer answer = ask(Map.of("ETCD_ENDPOINTS", "http://127.0.0.1:2379", "PATH", emptyDir().toString()));

        assertThat(answer.exitCode()).as("exit status with ETCD_ENDPOINTS set; stderr: %s", answer.stderr()).isZero();
    }

    @Test
    @DisplayName("the launcher hears 'available' when an etcd binary is on PATH")
    void binaryOnPathIsAnAvailableSource() throws Exception {
        Answer answer = ask(Map.of("PATH", emptyDir() + ":" + dirWithEtcd()));

        assertThat(answer.exitCode()).as("exit status with etcd on PATH; stderr: %s", answer.stderr()).isZero();
    }

    @Test
    @DisplayName("the launcher hears 'none, a binary would do' without ETCD_ENDPOINTS, an etcd binary or a Docker command")
    void nothingAnywhereIsNoSource() throws Exception {
        Answer withNothing = ask(Map.of("PATH", emptyDir().toString()));
        Answer withBlankEndpoints = ask(Map.of("PATH", emptyDir().toString(), "ETCD_ENDPOINTS", " "));

        assertThat(withNothing.exitCode()).as("exit status with nothing to use; stderr: %s", withNothing.stderr())
                .isEqualTo(EtcdSources.NONE_BINARY_WOULD_DO);
        assertThat(withBlankEndpoints.exitCode()).as("exit status with a blank ETCD_ENDPOINTS; stderr: %s",
                withBlankEndpoints.stderr()).isEqualTo(EtcdSources.NONE_BINARY_WOULD_DO);
    }

    @Test
    @DisplayName("the launcher hears why when KIT_ETCD is misspelt, or forces a Docker engine that does not answer")
    void badOrUnmetKitEtcdIsExplained() throws Exception {
        Answer misspelt = ask(Map.of("KIT_ETCD", "bianry", "PATH", dirWithEtcd().toString()));
        Answer noDocker = ask(Map.of("KIT_ETCD", "container", "PATH", dirWithEtcd().toString()));

        assertThat(misspelt.exitCode()).as("exit status with KIT_ETCD=bianry").isEqualTo(EtcdSources.BAD_KIT_ETCD);
        assertThat(misspelt.stderr()).as("what KIT_ETCD=bianry is told")
                .contains("KIT_ETCD must be 'binary' or 'container'").contains("'bianry'");
        assertThat(noDocker.exitCode()).as("exit status with KIT_ETCD=container and no docker command; stderr: %s",
                noDocker.stderr()).isEqualTo(EtcdSources.NONE_DOCKER_NEEDED);
        assertThat(noDocker.stderr()).as("what KIT_ETCD=container without Docker is told").contains("no Docker engine answers");
    }

    @Test
    @DisplayName("ETCD_ENDPOINTS comes first, then a binary, then Docker, which is asked only when no binary is found")
    void orderIsEndpointsThenBinaryThenDocker() throws IOException {
        String withEtcd = dirWithEtcd().toString();
        String withoutEtcd = emptyDir().toString();
        AtomicInteger dockerAsked = new AtomicInteger();

        assertThat(EtcdSources.firstAvailable(Map.of("ETCD_ENDPOINTS", "http://127.0.0.1:2379", "PATH", withEtcd), () -> true))
                .as("the source with ETCD_ENDPOINTS, a binary and Docker").contains(EtcdSources.Source.EXISTING_CLUSTER);
        assertThat(EtcdSources.firstAvailable(Map.of("PATH", withEtcd), () -> dockerAsked.incrementAndGet() > 0))
                .as("the source with a binary and Docker").contains(EtcdSources.Source.BINARY);
        assertThat(dockerAsked).as("times Docker was asked although a binary was found").hasValue(0);
        assertThat(EtcdSources.firstAvailable(Map.of("PATH", withoutEtcd), () -> true))
                .as("the source with Docker only").contains(EtcdSources.Source.CONTAINER);
        assertThat(EtcdSources.firstAvailable(Map.of("PATH", withEtcd, "KIT_ETCD", "container"), () -> true))
                .as("the source with KIT_ETCD=container, a binary and Docker").contains(EtcdSources.Source.CONTAINER);
        assertThat(EtcdSources.firstAvailable(Map.of("PATH", withoutEtcd, "KIT_ETCD", "binary"), () -> true))
                .as("the source with KIT_ETCD=binary and Docker only").isEmpty();
        assertThat(EtcdSources.order(Map.of("KIT_ETCD", " Binary ", "ETCD_ENDPOINTS", "http://127.0.0.1:2379")))
                .as("the order with KIT_ETCD=binary and ETCD_ENDPOINTS").containsExactly(EtcdSources.Source.EXISTING_CLUSTER);
        assertThatThrownBy(() -> EtcdSources.order(Map.of("KIT_ETCD", "docker", "ETCD_ENDPOINTS", "http://127.0.0.1:2379")))
                .as("a bad KIT_ETCD is refused even where ETCD_ENDPOINTS would win")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'docker'");
    }

    private record Answer(int exitCode, String stderr) {
    }

    /** Runs the source file as the kit's launcher does, with exactly {@code env} as the environment. */
    private Answer ask(Map<String, String> env) throws IOException, InterruptedException {
        Path stderr = dir.resolve("stderr-" + System.nanoTime() + ".txt");
        ProcessBuilder builder = new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", SOURCE_FILE.toString()))
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(stderr.toFile());
        builder.environment().clear();
        builder.environment().putAll(new HashMap<>(env));
        Process process = builder.start();
        try {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s answers within 60 s", SOURCE_FILE).isTrue();
        } finally {
            process.destroyForcibly();
        }
        return new Answer(process.exitValue(), Files.readString(stderr, StandardCharsets.UTF_8));
    }

    private Path emptyDir() throws IOException {
        return Files.createTempDirectory(dir, "empty-");
    }

    /** A directory holding an executable named {@code etcd}: the lookup only asks whether one is there. */
    private Path dirWithEtcd() throws IOException {
        Path bin = Files.createTempDirectory(dir, "bin-");
        Path etcd = Files.writeString(bin.resolve("etcd"), "#!/bin/sh\nexit 1\n");
        Files.setPosixFilePermissions(etcd, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin;
    }
}
