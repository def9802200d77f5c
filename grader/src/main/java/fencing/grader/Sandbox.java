package fencing.grader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Where a submission's JVM may write: only its own work directory.
 *
 * <p>When the grader runs as root (as on CI machines and grading servers), the submission's JVM runs
 * as the unprivileged user {@code nobody}: it can read the kit but cannot change the grader, the
 * hidden tests, the solutions or any report. Class path entries that {@code nobody} cannot read
 * (a Maven repository under {@code /root}) are copied into a readable snapshot.
 */
final class Sandbox implements AutoCloseable {

    private static final int NOBODY = 65534;
    private static final Set<PosixFilePermission> OPEN_DIR = PosixFilePermissions.fromString("rwxr-xr-x");

    private final boolean dropPrivileges;
    private Path snapshot;

    private Sandbox(boolean dropPrivileges) {
        this.dropPrivileges = dropPrivileges;
    }

    /** Returns a sandbox that drops privileges when this JVM runs as root and {@code setpriv} exists. */
    static Sandbox forThisMachine() {
        boolean root = new com.sun.security.auth.module.UnixSystem().getUid() == 0;
        boolean setpriv = Files.isExecutable(Path.of("/usr/bin/setpriv")) || Files.isExecutable(Path.of("/bin/setpriv"));
        return new Sandbox(root && setpriv);
    }

    /** Whether the submission's JVM runs as {@code nobody}. */
    boolean dropsPrivileges() {
        return dropPrivileges;
    }

    /** Returns the command prefix that starts a program as {@code nobody}, or nothing. */
    List<String> commandPrefix() {
        return dropPrivileges
                ? List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups")
                : List.of();
    }

    /** Returns {@code classPath} with every entry readable by the submission's JVM. */
    synchronized List<Path> readable(List<Path> classPath) throws IOException {
        if (!dropPrivileges) {
            return classPath;
        }
        List<Path> readable = new ArrayList<>();
        int index = 0;
        for (Path entry : classPath) {
            if (!Files.exists(entry) || worldReadable(entry)) {
                readable.add(entry);
                continue;
            }
            if (snapshot == null) {
                snapshot = Files.createTempDirectory("fencing-grader-classpath-");
                Files.setPosixFilePermissions(snapshot, OPEN_DIR);
            }
            Path copy = snapshot.resolve((index++) + "-" + entry.getFileName());
            if (Files.isDirectory(entry)) {
                copyTree(entry, copy);
            } else {
                copyReadable(entry, copy);
            }
            readable.add(copy);
        }
        return readable;
    }

    /** Opens {@code workDir} to the submission's JVM: it may read all of it and write only in {@code writable}. */
    void prepare(Path workDir, Path... writable) throws IOException {
        if (!dropPrivileges) {
            return;
        }
        try (Stream<Path> paths = Files.walk(workDir)) {
            for (Path path : paths.toList()) {
                Files.setPosixFilePermissions(path, Files.isDirectory(path) ? OPEN_DIR : PosixFilePermissions.fromString("rw-r--r--"));
            }
        }
        UserPrincipal nobody = FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        for (Path dir : writable) {
            Files.setOwner(dir, nobody);
        }
    }

    @Override
    public synchronized void close() {
        if (snapshot != null) {
            deleteTree(snapshot);
            snapshot = null;
        }
    }

    private static boolean worldReadable(Path entry) {
        for (Path dir = entry.toAbsolutePath().getParent(); dir != null; dir = dir.getParent()) {
            if (!hasOther(dir, PosixFilePermission.OTHERS_EXECUTE)) {
                return false;
            }
        }
        if (Files.isDirectory(entry)) {
            try (Stream<Path> paths = Files.walk(entry)) {
                return paths.allMatch(path -> hasOther(path, PosixFilePermission.OTHERS_READ)
                        && (!Files.isDirectory(path) || hasOther(path, PosixFilePermission.OTHERS_EXECUTE)));
            } catch (IOException e) {
                return false;
            }
        }
        return hasOther(entry, PosixFilePermission.OTHERS_READ);
    }

    private static boolean hasOther(Path path, PosixFilePermission permission) {
        try {
            return Files.getPosixFilePermissions(path).contains(permission);
        } catch (IOException e) {
            return false;
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : paths.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                    Files.setPosixFilePermissions(target, OPEN_DIR);
                } else {
                    copyReadable(source, target);
                }
            }
        }
    }

    private static void copyReadable(Path source, Path target) throws IOException {
        Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete " + root, e);
        }
    }
}
