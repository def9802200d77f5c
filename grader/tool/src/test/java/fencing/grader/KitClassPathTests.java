package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencing.grader.pipeline.TestSuite;
import fencing.grader.sandbox.Sandbox;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The grader's class path by role: named by the build, kept by copies, never read off an entry's name. */
class KitClassPathTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("the build names the kit's four entries, and every other entry is a library")
    void theBuildNamesEachRole() {
        KitClassPath classPath = KitClassPath.ofThisJvm();

        for (KitClassPath.Role role : List.of(KitClassPath.Role.TOOL, KitClassPath.Role.PROVIDED,
                KitClassPath.Role.HIDDEN_TESTS, KitClassPath.Role.PUBLIC_TESTS)) {
            assertThat(classPath.paths(role)).as("entries of role %s on %s", role, classPath.paths()).hasSize(1);
        }
        assertThat(classPath.path(KitClassPath.Role.HIDDEN_TESTS)).as("the hidden tests' entry")
                .isEqualTo(TestSuite.HIDDEN.root());
        assertThat(classPath.paths(KitClassPath.Role.LIBRARY)).as("libraries on the grader's class path")
                .anyMatch(path -> path.getFileName().toString().startsWith("jetcd-core"));
    }

    @Test
    @DisplayName("an entry's name says nothing of its role: a provided jar copied as 0-fencing-exercises.jar is still provided,"
            + " and a library called fencing-anything.jar is still a library, placed before the submission's classes with the other"
            + " libraries (jars first, for the class data archive)")
    void rolesDoNotComeFromNames() {
        Path provided = dir.resolve("0-fencing-exercises-1.0.0-SNAPSHOT.jar");
        Path library = dir.resolve("fencing-lookalike.jar");
        Path tool = dir.resolve("classes");
        Path hidden = dir.resolve("hidden.jar");
        Path publicTests = dir.resolve("public.jar");
        Path libraryClasses = dir.resolve("test-classes");
        String path = String.join(File.pathSeparator, tool.toString(), libraryClasses.toString(), library.toString(),
                provided.toString(), hidden.toString(), publicTests.toString());

        KitClassPath classPath = KitClassPath.of(path, Map.of(KitClassPath.Role.TOOL, tool, KitClassPath.Role.PROVIDED, provided,
                KitClassPath.Role.HIDDEN_TESTS, hidden, KitClassPath.Role.PUBLIC_TESTS, publicTests));
        Path classes = dir.resolve("submission-classes");

        assertThat(classPath.forSubmission(classes)).as("the submission JVM's class path")
                .containsExactly(library, libraryClasses, classes, tool, provided, hidden, publicTests);
    }

    @Test
    @DisplayName("a role named for an entry that is not on the class path is refused, saying which")
    void aRoleOffTheClassPathIsRefused() {
        Path tool = dir.resolve("classes");
        Path elsewhere = dir.resolve("elsewhere.jar");

        assertThatThrownBy(() -> KitClassPath.of(tool.toString(), Map.of(KitClassPath.Role.TOOL, tool,
                KitClassPath.Role.PROVIDED, elsewhere)))
                .as("a provided entry that the class path does not hold")
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("-Dkit.provided=" + elsewhere).hasMessageContaining("is not on the grader's class path");
    }

    @Test
    @DisplayName("as root, each entry nobody cannot read is copied for the submission's JVM, and the copy keeps its role")
    void copiesForTheSandboxKeepTheirRoles() throws Exception {
        try (Sandbox sandbox = Sandbox.forThisMachine()) {
            Assumptions.assumeTrue(sandbox.dropsPrivileges(), "copies are made only when grading as root, which drops to nobody");
            Path closed = Files.createDirectories(dir.resolve("closed"));
            Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
            KitClassPath original = KitClassPath.ofThisJvm();
            Path provided = Files.copy(original.path(KitClassPath.Role.PROVIDED), closed.resolve("fencing-exercises.jar"));
            KitClassPath moved = new KitClassPath(original.entries().stream()
                    .map(entry -> entry.role() == KitClassPath.Role.PROVIDED ? new KitClassPath.Entry(provided, entry.role()) : entry)
                    .toList());

            KitClassPath readable = sandbox.readable(moved);

            Path copy = readable.path(KitClassPath.Role.PROVIDED);
            assertThat(copy).as("the provided jar nobody cannot read, made readable").isNotEqualTo(provided);
            assertThat(copy.getFileName().toString()).as("the copy's name").doesNotStartWith("fencing-");
            assertThat(readable.forSubmission(dir.resolve("c")).indexOf(dir.resolve("c")))
                    .as("place of the submission's classes before the copied provided jar on %s", readable.paths())
                    .isLessThan(readable.forSubmission(dir.resolve("c")).indexOf(copy));
        }
    }

    @Test
    @DisplayName("a work directory below one closed to other users is refused for the sandbox, naming the closed one;"
            + " one below open directories is not")
    void aWorkDirectoryNobodyCannotEnterIsRefused() throws Exception {
        Path closed = Files.createDirectories(dir.resolve("closed"));
        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
        Path open = Files.createDirectories(dir.resolve("open"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));

        assertThatThrownBy(() -> Sandbox.requireReachable(closed.resolve("work"), "work directory"))
                .as("a work directory below %s (rwx------)", closed)
                .isInstanceOf(Sandbox.Unreachable.class)
                .hasMessageContaining(closed + " is closed to other users (rwx------)")
                .hasMessageContaining("java.io.tmpdir");
        Assumptions.assumeTrue(aboveIsOpen(dir), "the temporary directory's own parents are closed to other users here");
        Sandbox.requireReachable(open.resolve("work"), "work directory");
    }

    private static boolean aboveIsOpen(Path path) {
        for (Path above = path.toAbsolutePath().getParent(); above != null; above = above.getParent()) {
            try {
                if (!Files.getPosixFilePermissions(above).contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE)) {
                    return false;
                }
            } catch (java.io.IOException e) {
                return false;
            }
        }
        return true;
    }
}
