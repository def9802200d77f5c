package fencing.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/** Copying and removing a directory and everything in it, the one way the kit does it. */
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

    /**
     * Copies the directory {@code from} and everything below it to {@code to}, with each file's attributes.
     *
     * <p>A symbolic link anywhere in {@code from} is refused rather than followed, so that a copy never
     * reaches outside the tree it was asked for.
     *
     * @throws IOException if {@code from} is not a directory, holds a symbolic link, or a file could not be copied
     */
    public static void copy(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("not a directory (or a symbolic link to one), cannot copy it: " + from);
        }
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : paths.sorted(Comparator.naturalOrder()).toList()) {
                if (Files.isSymbolicLink(source)) {
                    throw new IOException("a symbolic link, not copied: " + source);
                }
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
