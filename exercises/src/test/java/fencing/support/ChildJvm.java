package fencing.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A JVM running {@link EtcdProbe} with an environment of the test's choosing; {@link #close()} kills it.
 *
 * <p>Its output goes to files, so that it never blocks on a full pipe and can be read while it runs.
 */
final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private ChildJvm(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /**
     * Starts {@link EtcdProbe} with {@code args}, this JVM's environment changed by {@code env}.
     *
     * @param env    variables to set; a {@code null} value removes the variable
     * @param outDir where the output files go
     */
    static ChildJvm start(Map<String, String> env, Path outDir, String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"),
                EtcdProbe.class.getName()));
        command.addAll(List.of(args));
        try {
            Path out = Files.createTempFile(outDir, "child-", ".out");
            Path err = Files.createTempFile(outDir, "child-", ".err");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            env.forEach((name, value) -> {
                if (value == null) {
                    builder.environment().remove(name);
                } else {
                    builder.environment().put(name, value);
                }
            });
            return new ChildJvm(builder.start(), out, err);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start a child JVM", e);
        }
    }

    /** Waits up to {@code timeout} for an output line {@code key=...}; returns its value, empty if none came. */
    Optional<String> awaitValue(String key, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        do {
            Optional<String> value = value(key);
            if (value.isPresent() || !process.isAlive()) {
                return value(key);
            }
            Etcd.sleep(Duration.ofMillis(20));
        } while (System.nanoTime() < deadline);
        return Optional.empty();
    }

    /** Returns the value of the output line {@code key=...}, if printed. */
    Optional<String> value(String key) {
        return read(stdout).lines()
                .filter(line -> line.startsWith(key + "="))
                .map(line -> line.substring(key.length() + 1))
                .findFirst();
    }

    /** Waits up to {@code timeout} for the JVM to end; returns its exit code, or empty if it is still running. */
    Optional<Integer> awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? Optional.of(process.exitValue()) : Optional.empty();
    }

    /** Kills the JVM with SIGKILL, as a crash or {@code kill -9} would, and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    String stdout() {
        return read(stdout);
    }

    String stderr() {
        return read(stderr);
    }

    /**
     * Ends the JVM if it still runs: SIGTERM first, so that its shutdown hooks stop what it started
     * even when a test fails early, then SIGKILL after 10 s.
     */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }

    @Override
    public String toString() {
        return "child JVM (pid " + process.pid() + ")\nstdout:\n" + stdout() + "\nstderr:\n" + stderr();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
