package fencing.grader.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.KitClassPath;
import fencing.grader.KitLocations;
import fencing.grader.StudentFiles;
import fencing.support.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compile step file by file, on javac's own diagnostics: a student file that does not compile, or breaks the
 * contract of its stub, is set aside as the kit's stub and the rest compiles; an error in one student file that comes
 * from another is put down to that other; and only errors no student file explains fail the whole submission.
 */
class SubmissionCompilerTests {

    private static final KitClassPath KIT = KitClassPath.ofThisJvm();
    private static final String SINK = "fencing/sink/FencedSink.java";
    private static final String ETCD_LOCK = "fencing/etcd/EtcdLockService.java";
    private static final String LOCK = "fencing/basics/LockService.java";
    private static final String FENCING = "fencing/basics/Fencing.java";

    @TempDir
    Path dir;

    private Path sources;

    @BeforeEach
    void copyTheSolutions() throws IOException {
        sources = dir.resolve("sources");
        FileTrees.copy(KitLocations.solutions().resolve(StudentFiles.SOURCE_ROOT), sources);
    }

    @Test
    @DisplayName("the solutions compile with no file set aside")
    void theSolutionsKeepEveryFile() throws IOException {
        SubmissionCompiler.Result result = compile(StudentFiles.PATHS, List.of());

        assertThat(result.ok()).as("whether the solutions compile: %s", result.output()).isTrue();
        assertThat(result.setAside()).as("files of the solutions set aside").isEmpty();
    }

    @Test
    @DisplayName("a syntax error in FencedSink.java sets that file alone aside, named by its first error with the student's"
            + " path and line, and the kit's stub compiles in its place, its failures saying why")
    void aSyntaxErrorSetsItsFileAside() throws IOException {
        copyEntry("wrong/sink-syntax-error", SINK);

        SubmissionCompiler.Result result = compile(StudentFiles.PATHS, List.of());

        assertThat(result.ok()).as("whether the rest compiles, FencedSink.java without its ';': %s", result.output()).isTrue();
        assertThat(result.setAside()).as("files set aside for a FencedSink.java without a ';' on line 45")
                .containsExactly(new SetAside(SINK, SetAside.Cause.DID_NOT_COMPILE,
                        "src/main/java/fencing/sink/FencedSink.java:45: ';' expected"));
        assertThat(result.classes()).as("classes compiled with the sink set aside").contains("fencing.sink.FencedSink",
                "fencing.sink.OwnerCheckingSink", "fencing.basics.LockService");
        assertThat(Files.readString(sources.resolve(SINK))).as("the copy of FencedSink.java once set aside: the stub, saying why")
                .contains("\"did not compile: src/main/java/fencing/sink/FencedSink.java:45: ';' expected; graded as the kit's stub: ")
                .doesNotContain("BEGIN IMMEDIATE\")\n");
    }

    @Test
    @DisplayName("tryAcquire declared 'throws Exception' compiles, but is set aside as a change of the contract that names"
            + " the member, the rule and the line")
    void aCheckedExceptionTheStubDoesNotDeclareChangesTheContract() throws IOException {
        copyEntry("wrong/etcd-acquire-throws-exception", ETCD_LOCK);

        SubmissionCompiler.Result result = compile(StudentFiles.PATHS, List.of());

        assertThat(result.ok()).as("whether the rest compiles: %s", result.output()).isTrue();
        assertThat(result.setAside()).as("files set aside for tryAcquire(String) throws Exception").singleElement()
                .satisfies(aside -> {
                    assertThat(aside.path()).as("the file set aside").isEqualTo(ETCD_LOCK);
                    assertThat(aside.reason()).as("why, as its tests say it").startsWith("the contract changed: "
                            + "EtcdLockService.tryAcquire(String) must not declare throws Exception"
                            + " (src/main/java/fencing/etcd/EtcdLockService.java:69)");
                });
    }

    @Test
    @DisplayName("a method LockService.java no longer has, which the student's Fencing.java still calls, sets aside"
            + " LockService.java alone: Fencing.java compiles against the stub")
    void anErrorThatComesFromAnotherFileIsPutDownToThatFile() throws IOException {
        replace(LOCK, "public synchronized long acquire(String client) {", "public synchronized long take(String client) {");

        SubmissionCompiler.Result result = compile(StudentFiles.PATHS, List.of());

        assertThat(result.ok()).as("whether the rest compiles: %s", result.output()).isTrue();
        assertThat(result.setAside()).as("files set aside when LockService.acquire is renamed take and Fencing calls acquire")
                .singleElement().satisfies(aside -> {
                    assertThat(aside.path()).as("the file set aside").isEqualTo(LOCK);
                    assertThat(aside.reason()).as("why").startsWith("the contract changed: LockService.acquire(String) must"
                            + " stay as the handout's stub declares it, public long acquire(String); yours has no such method"
                            + " (src/main/java/fencing/basics/LockService.java:16)");
                });
    }

    @Test
    @DisplayName("a file that calls what only the student's own version of a set-aside file has is set aside after it,"
            + " saying it compiled against that file's stub")
    void aFileThatNeedsASetAsideFileFollowsIt() throws IOException {
        replace(LOCK, "public synchronized long acquire(String client) {", """
                public long peek() {
                        return 0;
                    }

                    public synchronized long acquire(String client) {
                        undefined();""");
        replace(FENCING, "long tokenA = locks.acquire(\"A\");", "locks.peek();\n        long tokenA = locks.acquire(\"A\");");

        SubmissionCompiler.Result result = compile(StudentFiles.PATHS, List.of());

        assertThat(result.ok()).as("whether the rest compiles: %s", result.output()).isTrue();
        assertThat(result.setAside()).as("files set aside, in order, when LockService.java has an error and Fencing.java"
                + " calls its extra peek()").extracting(SetAside::path, SetAside::cause).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(LOCK, SetAside.Cause.DID_NOT_COMPILE),
                        org.assertj.core.groups.Tuple.tuple(FENCING, SetAside.Cause.DID_NOT_COMPILE));
        assertThat(result.setAside().get(0).detail()).as("why LockService.java was set aside")
                .startsWith("src/main/java/fencing/basics/LockService.java:35: cannot find symbol");
        assertThat(result.setAside().get(1).detail()).as("why Fencing.java was set aside after it")
                .startsWith("src/main/java/fencing/basics/Fencing.java:").contains("cannot find symbol")
                .endsWith("(compiled against the kit's stub of src/main/java/fencing/basics/LockService.java, set aside)");
    }

    @Test
    @DisplayName("a Predictions.java that does not compile is set aside too, though its stub holds placeholders, not failures")
    void aFileWhoseStubThrowsNothingIsSetAsideToo() throws IOException {
        String predictions = "fencing/basics/Predictions.java";
        replace(predictions, "WRITE_WITH_TOKEN_7 = \"reject\";", "WRITE_WITH_TOKEN_7 = reject;");

        SubmissionCompiler.Result result = compile(StudentFiles.PATHS, List.of());

        assertThat(result.ok()).as("whether the rest compiles, an answer in Predictions.java unquoted: %s", result.output()).isTrue();
        assertThat(result.setAside()).as("files set aside for an unquoted answer in Predictions.java").extracting(SetAside::reason)
                .singleElement().asString().startsWith("did not compile: src/main/java/fencing/basics/Predictions.java:21:"
                        + " cannot find symbol");
        assertThat(sources.resolve(predictions)).as("the copy of Predictions.java once set aside")
                .hasSameTextualContentAs(KitLocations.exercises().resolve(StudentFiles.SOURCE_ROOT).resolve(predictions));
    }

    @Test
    @DisplayName("a missing file's stub is never set aside, and files the submission holds are judged beside it")
    void aMissingFilesStubStaysInPlace() throws IOException {
        List<String> taken = StudentFiles.PATHS.stream().filter(path -> !path.equals(LOCK)).toList();
        Files.copy(KitLocations.exercises().resolve(StudentFiles.SOURCE_ROOT).resolve(LOCK), sources.resolve(LOCK),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        copyEntry("wrong/sink-syntax-error", SINK);

        SubmissionCompiler.Result result = compile(taken, List.of(LOCK));

        assertThat(result.ok()).as("whether it compiles, LockService.java missing and FencedSink.java broken: %s",
                result.output()).isTrue();
        assertThat(result.setAside()).as("files set aside").extracting(SetAside::path).containsExactly(SINK);
    }

    @Test
    @DisplayName("when the stubs in every place do not compile either (the kit's provided code is off the class path), the"
            + " submission does not compile at all, and the output is javac's errors")
    void errorsNoStudentFileExplainsFailTheWholeSubmission() throws IOException {
        List<Path> withoutProvided = KIT.entries().stream().filter(entry -> entry.role() != KitClassPath.Role.PROVIDED)
                .map(KitClassPath.Entry::path).toList();

        SubmissionCompiler.Result result = SubmissionCompiler.compile(sources, StudentFiles.PATHS, List.of(),
                dir.resolve("classes"), withoutProvided, Contract.ofStubs(KIT.paths()));

        assertThat(result.ok()).as("whether the solutions compile without the kit's provided code").isFalse();
        assertThat(result.output()).as("the output of a submission that does not compile")
                .contains("src/main/java/fencing/").contains(": error: cannot find symbol");
    }

    private SubmissionCompiler.Result compile(List<String> taken, List<String> stubbed) throws IOException {
        return SubmissionCompiler.compile(sources, taken, stubbed, dir.resolve("classes"), KIT.paths(),
                Contract.ofStubs(KIT.paths()));
    }

    private void copyEntry(String entry, String path) throws IOException {
        Files.copy(KitLocations.catalog().resolve(entry).resolve(StudentFiles.SOURCE_ROOT).resolve(path), sources.resolve(path),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** Replaces {@code from} by {@code to} in the copy of {@code path}, which must hold it. */
    private void replace(String path, String from, String to) throws IOException {
        String text = Files.readString(sources.resolve(path));
        assertThat(text).as("the solutions' %s", path).contains(from);
        Files.writeString(sources.resolve(path), text.replaceFirst(java.util.regex.Pattern.quote(from),
                java.util.regex.Matcher.quoteReplacement(to)));
    }
}
