package fencing.grader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the kit's parts are: its root directory and its two suites of tests.
 *
 * <p>The build says where each is, with system properties set by {@code ./kit} and the grader's pom
 * ({@code kit.root}, {@code kit.hidden-tests}, {@code kit.public-tests}); nothing is guessed from where a class
 * was loaded or from a path's spelling. Only the root has a fallback, for a tool started by hand: the nearest
 * directory above the working directory that holds {@code ./kit} and {@code grader/tests}.
 */
public final class KitLocations {

    /** The system property naming the kit's root directory. */
    public static final String ROOT = "kit.root";
    /** The system property naming the hidden tests' jar or class directory. */
    public static final String HIDDEN_TESTS = "kit.hidden-tests";
    /** The system property naming the public tests' jar or class directory. */
    public static final String PUBLIC_TESTS = "kit.public-tests";

    private KitLocations() {
    }

    /**
     * Returns the kit's root directory.
     *
     * @throws IllegalStateException if it is neither configured nor found above the working directory
     */
    public static Path root() {
        return findRoot().orElseThrow(() -> new IllegalStateException("cannot find the kit's root: set -D" + ROOT
                + "=DIR, or run from inside the kit (a directory holding ./kit and grader/tests)"));
    }

    /** Returns the kit's root directory, if it is configured or found above the working directory. */
    public static Optional<Path> findRoot() {
        String configured = System.getProperty(ROOT);
        if (configured != null && !configured.isBlank()) {
            Path root = Path.of(configured).toAbsolutePath().normalize();
            if (!isKitRoot(root)) {
                throw new IllegalStateException(ROOT + "=" + configured + " is not the kit's root (no ./kit and grader/tests there)");
            }
            return Optional.of(root);
        }
        for (Path dir = Path.of("").toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            if (isKitRoot(dir)) {
                return Optional.of(dir);
            }
        }
        return Optional.empty();
    }

    /** Returns the reference solutions' directory. */
    public static Path solutions() {
        return root().resolve("solutions");
    }

    /** Returns the exercises' directory: what students get. */
    public static Path exercises() {
        return root().resolve("exercises");
    }

    /** Returns the catalogs of known-wrong, correct and hostile submissions. */
    public static Path catalog() {
        return root().resolve("grader/tests/catalog");
    }

    /**
     * Returns the configured location of a suite's compiled tests.
     *
     * @param property {@link #HIDDEN_TESTS} or {@link #PUBLIC_TESTS}
     */
    public static Path tests(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("the tests' location " + property + " is not configured: start the grader"
                    + " through ./kit (or set -D" + property + "=JAR_OR_DIRECTORY)");
        }
        Path location = Path.of(value).toAbsolutePath().normalize();
        if (!Files.exists(location)) {
            throw new IllegalStateException(property + "=" + value + " does not exist: build the kit first (./kit test)");
        }
        return location;
    }

    private static boolean isKitRoot(Path dir) {
        return Files.isRegularFile(dir.resolve("kit")) && Files.isDirectory(dir.resolve("grader/tests"));
    }
}
