package fencing.grader.classpage;

import fencing.grader.ConsoleRun;
import fencing.grader.StudentFiles;
import fencing.grader.cli.GradeCommand;
import fencing.support.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A class of catalog submissions graded once, for real, by {@code ./kit grade --batch}: the solutions, a renamed and
 * reordered copy of them, the untouched stubs, known-wrong entries of several properties, one whose {@code Quorum.java}
 * does not compile (graded with that file set aside, and not parsed by JPlag) and one unfit. Register it with
 * {@code @RegisterExtension}; it is graded once for the whole run, and deleted after it.
 */
final class GradedClass implements BeforeAllCallback {

    /** The catalog's known-wrong entries in the class: the core, the transaction, the answers, Part 4. */
    static final List<String> WRONG = List.of("wrong/resource-strictly-greater", "wrong/sink-check-outside-transaction",
            "wrong/answers-lease-id-is-token", "wrong/owner-sink-fails-open");
    /** The unfit student: an empty folder, with a comma in the name as a CSV field must survive it. */
    static final String UNFIT = "smith, anna";
    static final String NOT_COMPILING = "does-not-compile";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(GradedClass.class);

    /**
     * The graded class, shared by every test class of the run, its folder deleted when the run ends.
     *
     * @param dir     the folder of the class and its output
     * @param out     the batch's output folder
     * @param console what the batch printed
     */
    record Graded(Path dir, Path out, String console) implements ExtensionContext.Store.CloseableResource {

        @Override
        public void close() {
            FileTrees.delete(dir);
        }
    }

    private Graded graded;

    @Override
    public void beforeAll(ExtensionContext context) {
        graded = context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Graded.class, key -> {
            try {
                Path dir = Files.createTempDirectory("fencing-class-page-");
                Path batch = layOut(dir.resolve("class"));
                return grade(dir, batch, dir.resolve("out"));
            } catch (IOException e) {
                throw new UncheckedIOException("could not lay out or grade the class", e);
            }
        }, Graded.class);
    }

    /** Returns the batch's output folder. */
    Path out() {
        return graded.out();
    }

    /** Returns what the batch printed. */
    String console() {
        return graded.console();
    }

    private static Path layOut(Path batch) throws IOException {
        Submissions.solutions(batch.resolve("solutions"));
        Submissions.renamedCopy(batch.resolve("renamed-copy"));
        Submissions.stubs(batch.resolve("stubs"));
        for (String entry : WRONG) {
            Submissions.entry(entry, batch.resolve(entry.substring(entry.indexOf('/') + 1)));
        }
        Path broken = Submissions.solutions(batch.resolve(NOT_COMPILING)).resolve(StudentFiles.SOURCE_ROOT).resolve("fencing/basics/Quorum.java");
        Files.writeString(broken, Files.readString(broken).replace("public final class Quorum {", "public final class Quorum { this is not Java;"));
        Files.createDirectories(batch.resolve(UNFIT));
        return batch;
    }

    private static Graded grade(Path dir, Path batch, Path target) {
        // Generous limits: this class is about the page, and must not lose points to a busy machine.
        ConsoleRun run = ConsoleRun.of(() -> GradeCommand.run("--batch", batch.toString(), "--out", target.toString(), "--jobs", "2"));
        if (run.exit() != 0) {
            throw new IllegalStateException("the class's batch ended with exit code " + run.exit() + ":\n" + run.text());
        }
        return new Graded(dir, target, run.text());
    }
}
