package fencing.grader.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.KitClassPath;
import fencing.support.ChildJvm;
import fencing.support.Supervised;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The class data archive: made once from the classes a first JVM loaded, mapped by the JVMs after it, never made from a bad list. */
class ClassDataArchiveTests {

    private static final Duration DUMP_LIMIT = Duration.ofMinutes(3);

    @TempDir
    Path dir;

    private final KitClassPath classPath = KitClassPath.ofThisJvm();

    @Test
    @DisplayName("the first JVM lists its classes; once the archive is made, a JVM whose class path starts with the libraries maps it,"
            + " and one whose class path starts elsewhere does not")
    void laterJvmsMapTheArchiveMadeFromTheFirst() throws Exception {
        assertThat(classPath.paths(KitClassPath.Role.LIBRARY)).as("library jars on the grader's class path").isNotEmpty();
        try (ClassDataArchive archive = new ClassDataArchive(classPath)) {
            Path first = Files.createDirectories(dir.resolve("first"));
            ClassDataArchive.Use listing = archive.next(first).orElseThrow();
            assertThat(listing.listing()).as("the first JVM's part: list the classes it loads").isTrue();
            assertThat(archive.next(Files.createDirectories(dir.resolve("second"))))
                    .as("what a second JVM does while the first still lists: nothing").isEmpty();
            run(ChildJvm.of(ArchiveProbe.class).classPath(submissionClassPath(archive)).loadedClassList(listing.file()));
            archive.ended(first);

            ClassDataArchive.Use mapping = awaitArchive(archive, Files.createDirectories(dir.resolve("third")));
            assertThat(run(ChildJvm.of(ArchiveProbe.class).classPath(submissionClassPath(archive)).sharedArchive(mapping.file())))
                    .as("java.vm.info of a JVM given the archive, on the class path a submission's JVM gets: the libraries first").contains("sharing");
            assertThat(run(ChildJvm.of(ArchiveProbe.class).classPath(kitFirst()).sharedArchive(mapping.file())))
                    .as("java.vm.info of a JVM given the archive, its class path starting with the kit's classes").doesNotContain("sharing");
        }
    }

    @Test
    @DisplayName("a grader with fewer grades to come than an archive pays back makes none: no JVM lists its classes or maps one")
    void fewGradesMakeNoArchive() throws Exception {
        try (ClassDataArchive archive = new ClassDataArchive(classPath)) {
            archive.expectGrades(ClassDataArchive.FEWEST_GRADES - 1);
            assertThat(archive.next(Files.createDirectories(dir.resolve("first"))))
                    .as("what the first JVM of %d grades does", ClassDataArchive.FEWEST_GRADES - 1).isEmpty();
            archive.expectGrades(ClassDataArchive.FEWEST_GRADES);
            assertThat(archive.next(Files.createDirectories(dir.resolve("second"))).map(ClassDataArchive.Use::listing))
                    .as("what the first JVM does once %d grades are to come", ClassDataArchive.FEWEST_GRADES).contains(true);
        }
    }

    @Test
    @DisplayName("a list too short or not made of class names (a JVM that ended early, or code that wrote over it) makes no archive,"
            + " and the next JVM lists its classes instead")
    void aBadListMakesNoArchive() throws Exception {
        try (ClassDataArchive archive = new ClassDataArchive(classPath)) {
            Path first = Files.createDirectories(dir.resolve("first"));
            ClassDataArchive.Use listing = archive.next(first).orElseThrow();
            List<String> lines = new ArrayList<>(List.of("java/lang/Object id: 0", "io/etcd/jetcd/Client"));
            IntStream.range(0, 5_000).mapToObj(i -> "@lambda-proxy not/a/Name " + i + " ../../etc/passwd").forEach(lines::add);
            Files.write(listing.file(), lines, StandardCharsets.UTF_8);
            archive.ended(first);

            Optional<ClassDataArchive.Use> next = archive.next(Files.createDirectories(dir.resolve("second")));
            assertThat(next).as("what the JVM after a bad list does").isPresent();
            assertThat(next.get().listing()).as("the JVM after a bad list lists its classes: no archive was made").isTrue();
        }
    }

    private ClassDataArchive.Use awaitArchive(ClassDataArchive archive, Path runDir) throws InterruptedException {
        long deadline = System.nanoTime() + DUMP_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<ClassDataArchive.Use> use = archive.next(runDir);
            if (use.isPresent() && !use.get().listing()) {
                return use.get();
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no class data archive was made within " + DUMP_LIMIT.toSeconds() + " s of the first JVM's end");
    }

    /** The class path {@code archive} gives a submission's JVM, around a class directory with something in it, as a graded one has. */
    private String submissionClassPath(ClassDataArchive archive) throws IOException {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Files.writeString(classes.resolve("Student.class.txt"), "a submission's compiled classes go here");
        return join(archive.classPath(classes));
    }

    private String kitFirst() {
        List<Path> ordered = new ArrayList<>();
        classPath.entries().stream().filter(entry -> entry.role().kitOwn()).map(KitClassPath.Entry::path).forEach(ordered::add);
        ordered.addAll(classPath.paths(KitClassPath.Role.LIBRARY));
        return join(ordered);
    }

    private static String join(List<Path> entries) {
        return entries.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }

    private static String run(ChildJvm jvm) throws Exception {
        try (Supervised child = jvm.start("archive probe")) {
            assertThat(child.awaitExit(Duration.ofMinutes(1))).as("the probe JVM ends within a minute").isTrue();
            String output = new String(child.output().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(child.exitValue()).as("exit code of the probe JVM, which printed: %s", output).isZero();
            return output;
        }
    }
}
