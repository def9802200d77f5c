package fencing.grader;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A copy of the kit as a fresh clone holds it (its sources, no build output), made somewhere an instructor might keep
 * one, with the file modes a clone made under a given umask would have.
 */
final class KitCopy {

    private KitCopy() {
    }

    /**
     * Copies the kit at {@code kit} into {@code target}, leaving out what a build or a run writes ({@code target/}
     * folders, the root's {@code build/}) and the repository's history.
     *
     * @param privateFiles whether to give the files the modes of a clone made under {@code umask 077} (owner only)
     *                     rather than {@code umask 022}
     */
    static Path copy(Path kit, Path target, boolean privateFiles) throws IOException {
        Files.walkFileTree(kit, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) throws IOException {
                Path relative = kit.relativize(dir);
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                if (!relative.toString().isEmpty() && (name.equals("target") || relative.equals(Path.of("build"))
                        || relative.equals(Path.of(".git")))) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                Path copy = Files.createDirectories(target.resolve(relative.toString()));
                Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString(privateFiles ? "rwx------" : "rwxr-xr-x"));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Path copy = target.resolve(kit.relativize(file).toString());
                Files.copy(file, copy, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
                if (!Files.isSymbolicLink(copy)) {
                    boolean executable = Files.getPosixFilePermissions(file).contains(PosixFilePermission.OWNER_EXECUTE);
                    Files.setPosixFilePermissions(copy, modes(executable, privateFiles));
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return target;
    }

    private static Set<PosixFilePermission> modes(boolean executable, boolean privateFiles) {
        String owner = executable ? "rwx" : "rw-";
        String others = privateFiles ? "---" : executable ? "r-x" : "r--";
        return PosixFilePermissions.fromString(owner + others + others);
    }
}
