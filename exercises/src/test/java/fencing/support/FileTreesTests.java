package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FileTrees} on real directories: what a copy carries over, what it refuses, and what a delete removes. */
class FileTreesTests {

    private static final FileTime LONG_AGO = FileTime.from(Instant.parse("2001-02-03T04:05:06Z"));

    @TempDir
    Path dir;

    @Test
    @DisplayName("a copy carries every file and directory with its content, permissions and modification time")
    void copyCarriesContentAndAttributes() throws IOException {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"),
                "Skipped: checks POSIX permissions, which this file system does not have");
        Path from = tree();
        Path script = from.resolve("bin/run.sh");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-x---"));
        Files.setLastModifiedTime(script, LONG_AGO);
        Path readOnly = from.resolve("docs/sealed");
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        Files.setLastModifiedTime(readOnly, LONG_AGO);
        Path to = dir.resolve("copy/of/tree");

        try {
            FileTrees.copy(from, to);

            assertThat(to.resolve("top.txt")).as("a file at the top").hasContent("top");
            assertThat(to.resolve("docs/sealed/deep.txt")).as("a file two levels down, in a read-only directory")
                    .hasContent("deep");
            assertThat(to.resolve("empty")).as("an empty directory").isEmptyDirectory();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(to.resolve("bin/run.sh"))))
                    .as("the permissions of a copied file").isEqualTo("rwxr-x---");
            assertThat(Files.getLastModifiedTime(to.resolve("bin/run.sh"))).as("the modification time of a copied file")
                    .isEqualTo(LONG_AGO);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(to.resolve("docs/sealed"))))
                    .as("the permissions of a copied directory").isEqualTo("r-xr-xr-x");
            assertThat(Files.getLastModifiedTime(to.resolve("docs/sealed"))).as("the modification time of a copied directory")
                    .isEqualTo(LONG_AGO);
        } finally {
            // A read-only directory would keep the temporary directory from being cleaned up.
            Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
            if (Files.isDirectory(to.resolve("docs/sealed"))) {
                Files.setPosixFilePermissions(to.resolve("docs/sealed"), PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        }
    }

    @Test
    @DisplayName("a copy onto an existing tree replaces the files it brings and keeps the others")
    void copyOverlaysAnExistingTree() throws IOException {
        Path from = tree();
        Path to = Files.createDirectories(dir.resolve("target/docs"));
        Files.writeString(dir.resolve("target/top.txt"), "old top");
        Files.writeString(to.resolve("mine.txt"), "kept");

        FileTrees.copy(from, dir.resolve("target"));

        assertThat(dir.resolve("target/top.txt")).as("a file the copy brings replaces the one there").hasContent("top");
        assertThat(to.resolve("mine.txt")).as("a file the copy does not bring stays").hasContent("kept");
        assertThat(to.resolve("sealed/deep.txt")).as("a file below an existing directory").hasContent("deep");
    }

    @Test
    @DisplayName("a tree holding a symbolic link is refused, the error names the link, and nothing is copied")
    void copyRefusesSymbolicLinks() throws IOException {
        Path from = tree();
        Path outside = Files.writeString(dir.resolve("outside.txt"), "not part of the tree");
        Path link = Files.createSymbolicLink(from.resolve("docs/link.txt"), outside);
        Path to = dir.resolve("copy");

        assertThatThrownBy(() -> FileTrees.copy(from, to))
                .as("copying a tree with a symbolic link")
                .isInstanceOf(IOException.class)
                .hasMessageContaining(link.toString())
                .hasMessageContaining("symbolic link");
        assertThat(to).as("a refused copy creates nothing").doesNotExist();
    }

    @Test
    @DisplayName("a symbolic link to a directory is refused as the tree to copy")
    void copyRefusesALinkAsTheTree() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("link-to-tree"), tree());

        assertThatThrownBy(() -> FileTrees.copy(link, dir.resolve("copy")))
                .as("copying a link to a directory")
                .isInstanceOf(IOException.class)
                .hasMessageContaining(link.toString());
        assertThat(dir.resolve("copy")).as("a refused copy creates nothing").doesNotExist();
    }

    @Test
    @DisplayName("a file or a missing path is not a tree to copy, and a tree is not copied into itself")
    void copyRefusesWhatIsNotATree() throws IOException {
        Path file = Files.writeString(dir.resolve("file.txt"), "a file");
        Path from = tree();

        assertThatThrownBy(() -> FileTrees.copy(file, dir.resolve("copy")))
                .as("copying a file").isInstanceOf(NotDirectoryException.class).hasMessageContaining(file.toString());
        assertThatThrownBy(() -> FileTrees.copy(dir.resolve("missing"), dir.resolve("copy")))
                .as("copying a missing directory").isInstanceOf(NotDirectoryException.class);
        assertThatThrownBy(() -> FileTrees.copy(from, from.resolve("docs/inner")))
                .as("copying a tree into itself").isInstanceOf(IOException.class).hasMessageContaining("inside it");
        assertThat(dir.resolve("copy")).as("a refused copy creates nothing").doesNotExist();
        assertThat(from.resolve("docs/inner")).as("a refused copy into itself creates nothing").doesNotExist();
    }

    @Test
    @DisplayName("delete removes a whole tree, and a missing tree is no error")
    void deleteRemovesATree() throws IOException {
        Path tree = tree();

        FileTrees.delete(tree);
        FileTrees.delete(tree);

        assertThat(tree).as("a deleted tree").doesNotExist();
        assertThat(dir).as("the directory that held the tree stays").isDirectory();
    }

    /** A small tree: a file at the top, files two levels down, an empty directory. */
    private Path tree() throws IOException {
        Path root = dir.resolve("tree");
        Files.createDirectories(root.resolve("docs/sealed"));
        Files.createDirectories(root.resolve("bin"));
        Files.createDirectories(root.resolve("empty"));
        Files.writeString(root.resolve("top.txt"), "top");
        Files.writeString(root.resolve("bin/run.sh"), "#!/bin/sh\necho run\n");
        Files.writeString(root.resolve("docs/sealed/deep.txt"), "deep");
        return root;
    }
}
