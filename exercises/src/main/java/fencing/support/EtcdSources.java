package fencing.support;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Where an etcd can come from and in which order the kit tries them: the one place that order is written.
 *
 * <p>{@code ETCD_ENDPOINTS} (an existing cluster) first; then an {@code etcd} binary on {@code PATH}; then a
 * Docker engine. {@code KIT_ETCD} set to {@code binary} or {@code container} leaves only that one after
 * {@code ETCD_ENDPOINTS}. {@link Etcd} follows this order. The kit's launcher runs this file with Java's
 * single-file source launcher before a command that needs etcd, so it uses nothing but the JDK; see {@link #main}.
 */
public final class EtcdSources {

    /** The launcher may install an etcd binary: none is available, and a binary would be used. */
    public static final int NONE_BINARY_WOULD_DO = 1;
    /** {@code KIT_ETCD} has a value other than {@code binary} or {@code container}. */
    public static final int BAD_KIT_ETCD = 2;
    /** None is available, and {@code KIT_ETCD=container} leaves only a Docker engine. */
    public static final int NONE_DOCKER_NEEDED = 3;

    private static final long DOCKER_INFO_SECONDS = 20;

    /** A place an etcd can come from. */
    public enum Source {
        /** The cluster named by {@code ETCD_ENDPOINTS}, used as it is. */
        EXISTING_CLUSTER,
        /** An {@code etcd} binary on {@code PATH}, started as a child process. */
        BINARY,
        /** A container of an etcd image, started on a Docker engine. */
        CONTAINER
    }

    private EtcdSources() {
    }

    /**
     * Returns the sources to try for {@code env}, in order.
     *
     * @throws IllegalArgumentException if {@code KIT_ETCD} has a value other than {@code binary} or {@code container}
     */
    public static List<Source> order(Map<String, String> env) {
        String raw = Optional.ofNullable(env.get("KIT_ETCD")).orElse("");
        String forced = raw.trim().toLowerCase(Locale.ROOT);
        // Checked first, so that a typo is reported even where ETCD_ENDPOINTS would win.
        if (!List.of("", "binary", "container").contains(forced)) {
            throw new IllegalArgumentException("KIT_ETCD must be 'binary' or 'container' (or unset to choose"
                    + " automatically), got '" + raw + "'. Nothing was started.");
        }
        String endpoints = env.get("ETCD_ENDPOINTS");
        if (endpoints != null && !endpoints.isBlank()) {
            return List.of(Source.EXISTING_CLUSTER);
        }
        return switch (forced) {
            case "binary" -> List.of(Source.BINARY);
            case "container" -> List.of(Source.CONTAINER);
            default -> List.of(Source.BINARY, Source.CONTAINER);
        };
    }

    /**
     * Returns the first source in {@link #order} that is available here, if any.
     *
     * @param dockerAnswers asked only when the order reaches a container: whether a Docker engine answers
     * @throws IllegalArgumentException if {@code KIT_ETCD} has a bad value
     */
    public static Optional<Source> firstAvailable(Map<String, String> env, BooleanSupplier dockerAnswers) {
        for (Source source : order(env)) {
            boolean available = switch (source) {
                case EXISTING_CLUSTER -> true;
                case BINARY -> findBinary(env.get("PATH")).isPresent();
                case CONTAINER -> dockerAnswers.getAsBoolean();
            };
            if (available) {
                return Optional.of(source);
            }
        }
        return Optional.empty();
    }

    /** Returns the first executable {@code etcd} in the directories of {@code path} (a {@code PATH} value), if any. */
    public static Optional<Path> findBinary(String path) {
        return Stream.of(Optional.ofNullable(path).orElse("").split(File.pathSeparator))
                .filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, "etcd"))
                .filter(file -> Files.isRegularFile(file) && Files.isExecutable(file))
                .findFirst();
    }

    /**
     * Says through the exit status whether this environment has an etcd source, for the kit's launcher.
     *
     * <p>0 when one is available; {@link #NONE_BINARY_WOULD_DO} when none is and an etcd binary would be used
     * (the launcher may install one); {@link #BAD_KIT_ETCD} and {@link #NONE_DOCKER_NEEDED} with the reason on
     * standard error. Docker counts when the {@code docker} command's {@code docker info} succeeds, as for a user
     * at the terminal; {@link Etcd} asks Testcontainers, which then starts the container.
     */
    public static void main(String[] args) {
        Map<String, String> env = System.getenv();
        try {
            if (firstAvailable(env, EtcdSources::dockerInfoSucceeds).isPresent()) {
                System.exit(0);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("kit: " + e.getMessage());
            System.exit(BAD_KIT_ETCD);
        }
        if (order(env).contains(Source.BINARY)) {
            System.exit(NONE_BINARY_WOULD_DO);
        }
        System.err.println("kit: KIT_ETCD=container, but no Docker engine answers (docker info failed): start one,"
                + " or unset KIT_ETCD to use an etcd binary.");
        System.exit(NONE_DOCKER_NEEDED);
    }

    private static boolean dockerInfoSucceeds() {
        try {
            Process docker = new ProcessBuilder("docker", "info")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!docker.waitFor(DOCKER_INFO_SECONDS, TimeUnit.SECONDS)) {
                docker.destroyForcibly();
                return false;
            }
            return docker.exitValue() == 0;
        } catch (IOException noDockerCommand) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
