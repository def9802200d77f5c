package fencing.grader.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencing.grader.KitClassPath;
import fencing.grader.KitLocations;
import fencing.grader.StudentFiles;
import fencing.grader.sandbox.ClassDataArchive;
import fencing.grader.sandbox.Sandbox;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proof every grade takes before it is scored: the test JVM loaded the submission's classes from the submission's
 * own class directory, and not the kit's stubs of them; a class path that would grade the stubs ends the grade with
 * "grading could not run".
 */
class ClassOriginsTests {

    private static final KitClassPath KIT = KitClassPath.ofThisJvm();

    @TempDir
    Path dir;

    private Path classes;
    private ClassOrigins origins;
    private List<TestCase> lockTests;

    @BeforeEach
    void compileTheSolutionsLockService() throws IOException {
        // As root the test JVM runs as nobody, who must be able to enter its work directory, as in any grade.
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        // A copy, as the grader compiles: the compile step writes a stub over a file it sets aside.
        String lock = "fencing/basics/LockService.java";
        Path sources = dir.resolve("sources");
        Files.createDirectories(sources.resolve(lock).getParent());
        Files.copy(KitLocations.solutions().resolve(StudentFiles.SOURCE_ROOT).resolve(lock), sources.resolve(lock));
        classes = dir.resolve("classes");
        SubmissionCompiler.Result compiled = SubmissionCompiler.compile(sources, List.of(lock), List.of(), classes, KIT.paths(),
                Contract.ofStubs(KIT.paths()));
        assertThat(compiled.ok()).as("the solutions' LockService compiles: %s", compiled.output()).isTrue();
        assertThat(compiled.classes()).as("binary names of the classes compiled from LockService.java")
                .contains("fencing.basics.LockService");
        origins = new ClassOrigins(classes, compiled.classes());
        lockTests = TestSuite.HIDDEN.discover(false).stream()
                .filter(test -> test.className().equals("fencing.basics.LockServiceGradedTests")).limit(3).toList();
        assertThat(lockTests).as("graded tests of LockService to run").isNotEmpty();
    }

    @Test
    @DisplayName("on the submission's class path (libraries, its classes, then the kit's), its classes are its own and the tests run")
    void theSubmissionsClassesComeBeforeTheKitsStubs() throws Exception {
        List<TestResult> results = run(readable -> readable.forSubmission(classes));

        assertThat(results).as("verdicts of the solutions' LockService on %s", lockTests).allMatch(TestResult::passed);
    }

    @Test
    @DisplayName("a class path with the kit's provided code before the submission's classes is refused before any test is scored")
    void aClassPathThatWouldGradeTheStubsIsRefused() {
        Function<KitClassPath, List<Path>> stubsFirst = readable -> {
            List<Path> order = new ArrayList<>(readable.paths(KitClassPath.Role.LIBRARY));
            order.add(readable.path(KitClassPath.Role.PROVIDED));
            order.add(classes);
            readable.entries().stream().filter(entry -> entry.role().kitOwn() && entry.role() != KitClassPath.Role.PROVIDED)
                    .map(KitClassPath.Entry::path).forEach(order::add);
            return order;
        };

        assertThatThrownBy(() -> run(stubsFirst))
                .as("grading on a class path that puts the provided stubs first")
                .isInstanceOf(ClassOrigins.Misplaced.class)
                .hasMessageContaining("did not load the submission's own classes")
                .hasMessageContaining("fencing.basics.LockService from file:").hasMessageContaining("fencing-exercises");
    }

    @Test
    @DisplayName("a report that leaves a class out, or places it elsewhere, is refused; one that places every class in its directory is not")
    void theGraderJudgesTheReport() {
        String own = classes.toUri().toString();
        assertThatThrownBy(() -> origins.check(Map.of()))
                .as("a report of no classes").isInstanceOf(ClassOrigins.Misplaced.class).hasMessageContaining("not reported");
        assertThatThrownBy(() -> origins.check(Map.of("fencing.basics.LockService", "jrt:/java.base")))
                .as("a report of a class from elsewhere").isInstanceOf(ClassOrigins.Misplaced.class);
        Map<String, String> everyClassInPlace = new java.util.HashMap<>();
        origins.compiled().forEach(name -> everyClassInPlace.put(name, own));
        origins.check(everyClassInPlace);
    }

    @Test
    @DisplayName("a test JVM that ends before it reaches the grader is the grader's failure, with the JVM's own words, not a student's zero")
    void aJvmThatNeverStartsIsNotTheStudentsFault() {
        Function<KitClassPath, List<Path>> withoutTheTool = readable -> readable.entries().stream()
                .filter(entry -> entry.role() != KitClassPath.Role.TOOL).map(KitClassPath.Entry::path).toList();

        assertThatThrownBy(() -> run(withoutTheTool))
                .as("grading on a class path without the grader's own runner")
                .isInstanceOf(ForkedRun.NeverConnected.class)
                .hasMessageContaining("ended before it reached the grader")
                .hasMessageContaining("fencing.grader.pipeline.ChildRunner");
    }

    /** Runs the LockService tests on the class path {@code order} makes of the kit's, made readable as a grade makes it. */
    private List<TestResult> run(Function<KitClassPath, List<Path>> order) throws IOException, InterruptedException {
        Path workDir = Files.createDirectories(dir.resolve("work"));
        try (Sandbox sandbox = Sandbox.forThisMachine(); ClassDataArchive none = new ClassDataArchive(new KitClassPath(List.of()))) {
            ForkedRun run = new ForkedRun(order.apply(sandbox.readable(KIT)), workDir, Map.of(), GradingPolicy.load().limits(),
                    sandbox, List.of(), none, origins);
            return run.run(lockTests);
        }
    }
}
