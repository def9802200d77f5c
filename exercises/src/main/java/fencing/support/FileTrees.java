package fencing.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Copying and removing directory trees, the one way the kit does it. */
public final class FileTrees {

    private FileTrees() {
    }

    /**
     * Copies the directory {@code from} and everything below it into {@code to}, with the files' attributes.
     *
     * <p>{@code to} and its missing parents are created; a file already in {@code to} is replaced, other files
     * there stay. Directories this copy creates get their source's permissions and modification time.
     * A tree holding a symbolic link or a special file is refused before anything is copied: following a link
     * could copy what lies outside the tree, and copying the link would leave one pointing who knows where.
     *
     * @throws NotDirectoryException if {@code from} is not a directory
     * @throws IOException           if the tree holds a symbolic link or special file (the message names it), if
     *                               {@code to} lies inside {@code from}, or if a copy fails
     */
    public static void copy(Path from, Path to) throws IOException {
        if (Files.isSymbolicLink(from)) {
            throw new IOException("refusing to copy " + from + ": it is a symbolic link");
        }
        if (!Files.isDirectory(from, LinkOption.NOFOLLOW_LINKS)) {
            throw new NotDirectoryException(from.toString());
        }
        if (to.toAbsolutePath().normalize().startsWith(from.toAbsolutePath().normalize())) {
            throw new IOException("refusing to copy " + from + " into " + to + ", which lies inside it");
        }
        List<Path> sources;
        try (Stream<Path> paths = Files.walk(from)) {
            sources = paths.toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        for (Path source : sources) {
            BasicFileAttributes attributes = Files.readAttributes(source, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (attributes.isSymbolicLink()) {
                throw new IOException("refusing to copy " + from + ": " + source + " is a symbolic link");
            }
            if (!attributes.isDirectory() && !attributes.isRegularFile()) {
                throw new IOException("refusing to copy " + from + ": " + source + " is neither a file nor a directory");
            }
        }
        List<Path> created = new ArrayList<>();
        for (Path source : sources) {
            Path target = to.resolve(from.relativize(source).toString());
            if (Files.isDirectory(source, LinkOption.NOFOLLOW_LINKS)) {
                if (!Files.isDirectory(target)) {
                    Files.createDirectories(target);
                    created.add(source);
                }
            } else {
                Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING,
                        LinkOption.NOFOLLOW_LINKS);
            }
        }
        // Deepest first and after their contents: a read-only directory must receive its files before it becomes one.
        for (int i = created.size() - 1; i >= 0; i--) {
            Path source = created.get(i);
            copyDirectoryAttributes(source, to.resolve(from.relativize(source).toString()));
        }
    }

    private static void copyDirectoryAttributes(Path source, Path target) throws IOException {
        PosixFileAttributeView sourceView = Files.getFileAttributeView(source, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        PosixFileAttributeView targetView = Files.getFileAttributeView(target, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        if (sourceView != null && targetView != null) {
            PosixFileAttributes attributes = sourceView.readAttributes();
            targetView.setPermissions(attributes.permissions());
        }
        Files.setLastModifiedTime(target, Files.getLastModifiedTime(source, LinkOption.NOFOLLOW_LINKS));
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
