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
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract of a student file, which the kit's code is written against: the handout's stub's names and signatures.
 * A file that changes one compiles, and is set aside saying which rule it broke and where; what a student adds is free.
 */
class ContractTests {

    private static final KitClassPath KIT = KitClassPath.ofThisJvm();

    @TempDir
    Path dir;

    private Path sources;

    @BeforeEach
    void copyTheSolutions() throws IOException {
        sources = dir.resolve("sources");
        FileTrees.copy(KitLocations.solutions().resolve(StudentFiles.SOURCE_ROOT), sources);
    }

    /** Changes to a signature of the solutions, each as the file, what it replaces and with what, and the rule it breaks. */
    static Stream<Arguments> changedSignatures() {
        return Stream.of(
                Arguments.of("fencing/basics/LockService.java", "public synchronized long acquire(",
                        "public synchronized Long acquire(", "LockService.acquire(String) must return long; yours returns Long"
                                + " (src/main/java/fencing/basics/LockService.java:30)"),
                Arguments.of("fencing/etcd/EtcdLockService.java", "public boolean release(", "boolean release(",
                        "EtcdLockService.release(Ownership) must be public; yours is package-private"
                                + " (src/main/java/fencing/etcd/EtcdLockService.java:103)"),
                Arguments.of("fencing/basics/Predictions.java", "public static final long HIGHEST_TOKEN_REMEMBERED",
                        "public static final int HIGHEST_TOKEN_REMEMBERED", "Predictions.HIGHEST_TOKEN_REMEMBERED must be of"
                                + " type long; yours is of type int (src/main/java/fencing/basics/Predictions.java:18)"),
                Arguments.of("fencing/basics/Quorum.java", "public static int tolerated(", "public int tolerated(",
                        "Quorum.tolerated(int) must be static (src/main/java/fencing/basics/Quorum.java:32)"),
                Arguments.of("fencing/sink/FencedSink.java", "public FencedSink(ConnectionSource db) {",
                        "public FencedSink(ConnectionSource db, boolean strict) {", "new FencedSink(ConnectionSource) must"
                                + " stay as the handout's stub declares it, public FencedSink(ConnectionSource); yours has no"
                                + " such constructor (src/main/java/fencing/sink/FencedSink.java:23)"),
                Arguments.of("fencing/basics/Fencing.java", "scenario(Supplier<? extends ProtectedResource> newResource)",
                        "scenario(Supplier<ProtectedResource> newResource)", "Fencing.scenario(Supplier<? extends"
                                + " ProtectedResource>) must take (Supplier<? extends ProtectedResource>); yours takes"
                                + " (Supplier<ProtectedResource>) (src/main/java/fencing/basics/Fencing.java:29)"));
    }

    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @DisplayName("a file that changes a signature of its stub is set aside, naming the member, the rule and the line")
    @MethodSource("changedSignatures")
    void aChangedSignatureChangesTheContract(String path, String from, String to, String rule) throws IOException {
        replace(path, from, to);

        SubmissionCompiler.Result result = compile();

        assertThat(result.ok()).as("whether the rest compiles with %s changed to %s: %s", from, to, result.output()).isTrue();
        assertThat(result.setAside()).as("files set aside when %s becomes %s", from, to).singleElement().satisfies(aside -> {
            assertThat(aside.path()).as("the file set aside").isEqualTo(path);
            assertThat(aside.cause()).as("why").isEqualTo(SetAside.Cause.CONTRACT_CHANGED);
            assertThat(aside.reason()).as("the rule it names").startsWith("the contract changed: " + rule);
        });
    }

    @Test
    @DisplayName("a helper method, a private field, a nested class, an unchecked exception declared and a type annotation"
            + " keep the contract")
    void whatAStudentAddsIsFree() throws IOException {
        replace("fencing/basics/LockService.java", "public synchronized long acquire(String client) {", """
                private final Object unused = new Object();

                    static final class Helper {
                    }

                    public long peek() {
                        return 0;
                    }

                    public synchronized long acquire(@org.jspecify.annotations.Nullable String client)
                            throws IllegalStateException {""");

        SubmissionCompiler.Result result = compile();

        assertThat(result.ok()).as("whether a LockService with additions compiles: %s", result.output()).isTrue();
        assertThat(result.setAside()).as("files set aside for a LockService with a helper, a field, a nested class,"
                + " throws IllegalStateException and a @Nullable parameter").isEmpty();
    }

    private SubmissionCompiler.Result compile() throws IOException {
        return SubmissionCompiler.compile(sources, StudentFiles.PATHS, List.of(), dir.resolve("classes"), KIT.paths(),
                Contract.ofStubs(KIT.paths()));
    }

    /** Replaces {@code from} by {@code to} in the copy of {@code path}, which must hold it. */
    private void replace(String path, String from, String to) throws IOException {
        String text = Files.readString(sources.resolve(path));
        assertThat(text).as("the solutions' %s", path).contains(from);
        Files.writeString(sources.resolve(path), text.replace(from, to));
    }
}
