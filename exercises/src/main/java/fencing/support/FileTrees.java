package fencing.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing a directory and everything in it, the one way the kit does it. */
public final class FileTrees {

    private FileTrees() {
    }

    /**
     * Deletes {@code root} and everything below it; a missing {@code root} is not an error.
     *
     * @throws UncheckedIOException if something could not be deleted
     */
    public static void delete(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete " + root, e);
        } catch (UncheckedIOException e) {
            throw new UncheckedIOException("could not delete " + root, e.getCause());
        }
    }
}
