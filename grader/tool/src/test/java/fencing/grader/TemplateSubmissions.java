package fencing.grader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The submissions every platform template's test grades beside the catalog's entries: one with a file that does not
 * compile, and one that holds nothing at all.
 */
final class TemplateSubmissions {

    /** Part of the compiler's message about {@link #uncompilable}: a type in angle brackets, which an HTML view would swallow. */
    static final String COMPILER_SAYS = "java.util.List<java.lang.Integer>";

    /** How the grade of {@link #uncompilable} says its {@code Quorum.java} was set aside, the file and line first. */
    static final String SET_ASIDE = "did not compile: src/main/java/fencing/basics/Quorum.java:10: ";

    private TemplateSubmissions() {
    }

    /**
     * Builds in {@code target} the solutions, answers and study included, with a {@code Quorum.java} that does not compile:
     * graded as the kit's stub, the rest as usual.
     */
    static Path uncompilable(Path target) throws IOException {
        CatalogSubmissions.assemble(KitLocations.solutions(), target);
        Path quorum = target.resolve(StudentFiles.SOURCE_ROOT).resolve("fencing/basics/Quorum.java");
        String source = Files.readString(quorum);
        String broken = source.replace("public final class Quorum {",
                "public final class Quorum {\n    private static final java.util.List<java.lang.Integer> SIZES = 3;");
        if (broken.equals(source)) {
            throw new IllegalStateException(quorum + " no longer opens with 'public final class Quorum {'");
        }
        Files.writeString(quorum, broken);
        return target;
    }

    /** Makes {@code target} an empty folder: a student who handed in nothing. */
    static Path empty(Path target) throws IOException {
        return Files.createDirectories(target);
    }
}
