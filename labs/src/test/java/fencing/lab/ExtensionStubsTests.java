package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lab on a student's copy with Parts 1 to 3 done and Part 4's stubs untouched: the core cases run without the
 * current-owner mode, and the extension cases stop and name the method to write.
 *
 * <p>The reference {@code OwnerCheckingSink} fails closed: an owner check that throws rejects the write. On a stub
 * {@code EtcdOwnerCheck} it would reject every write and the case would merely differ; the lab must say instead
 * that the check is not implemented yet.
 */
@Tag("etcd")
@Timeout(120)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExtensionStubsTests {

    /** The Part 4 classes left out of the reference solutions, so that the stubs of the exercises serve. */
    private static final Set<String> STUBBED = Set.of("fencing/etcd/EtcdOwnerCheck.class", "fencing/sink/IdempotentLedger.class");

    private String classPath;

    @BeforeAll
    void solutionsWithoutThePart4Classes(@TempDir Path dir) throws IOException {
        List<String> entries = new ArrayList<>();
        boolean replaced = false;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.contains("fencing-solutions") || entry.replace('\\', '/').contains("/solutions/target/")) {
                Path copy = dir.resolve("solutions-without-part-4");
                copyWithout(Path.of(entry), copy);
                entries.add(copy.toString());
                replaced = true;
            } else {
                entries.add(entry);
            }
        }
        assertThat(replaced).as("the test class path has the solutions on it, to copy without Part 4").isTrue();
        assertThat(dir.resolve("solutions-without-part-4/fencing/etcd/EtcdLockService.class")).as("Parts 1 to 3 stay solved").exists();
        classPath = String.join(File.pathSeparator, entries);
    }

    @Test
    @DisplayName("forged on a stub EtcdOwnerCheck: the study exits 3 and names EtcdOwnerCheck.isCurrent, though the sink fails closed")
    void saysTheOwnerCheckIsNotImplementedYet(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "forged", "--child-class-path", classPath);

        assertThat(run.exitCode).as("a study that cannot run exits 3; it said:%n%s%s", run.out, run.err).isEqualTo(LabSettings.EXIT_COULD_NOT_RUN);
        assertThat(run.err).as("the study names the method to write").contains("Not implemented yet: EtcdOwnerCheck.isCurrent");
    }

    @Test
    @DisplayName("retry on a stub IdempotentLedger: the study exits 3 and names IdempotentLedger.add")
    void saysTheLedgerIsNotImplementedYet(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "retry", "--child-class-path", classPath);

        assertThat(run.exitCode).as("a study that cannot run exits 3; it said:%n%s%s", run.out, run.err).isEqualTo(LabSettings.EXIT_COULD_NOT_RUN);
        assertThat(run.err).as("the study names the method to write").contains("Not implemented yet: IdempotentLedger.add");
    }

    @Test
    @DisplayName("late-write on Part 4's stubs: the core lab still runs, plain and fenced, and says the current-owner mode was left out")
    void runsTheCoreCaseWithoutTheCurrentOwnerMode(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "late-write", "--child-class-path", classPath);

        assertThat(run.exitCode).as("late-write with Parts 1 to 3 done must end as expected (exit 0); it said:%n%s%s", run.out, run.err)
                .isZero();
        assertThat(run.out).as("what the study says about the missing mode").contains("current-owner mode left out");
        assertThat(run.repeat().modes().keySet()).as("the modes judged in the repeat").containsExactly("plain", "fenced");
        assertThat(run.file("report.md")).as("report.md explains the missing mode").contains("current-owner mode was left out");
    }

    private static void copyWithout(Path from, Path to) throws IOException {
        if (Files.isDirectory(from)) {
            copyTree(from, to);
            return;
        }
        try (FileSystem jar = FileSystems.newFileSystem(URI.create("jar:" + from.toUri()), Map.of())) {
            copyTree(jar.getPath("/"), to);
        }
    }

    private static void copyTree(Path root, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String relative = root.relativize(file).toString().replace('\\', '/');
                if (!STUBBED.contains(relative)) {
                    Path target = to.resolve(relative);
                    Files.createDirectories(target.getParent());
                    Files.copy(file, target);
                }
            }
        }
    }
}
