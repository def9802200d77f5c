package fencing.grader.classpage;

import fencing.grader.KitLocations;
import fencing.grader.StudentFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** What the similarity check takes from the kit itself: the handout's stubs, and the names of the provided sources. */
final class KitSources {

    private KitSources() {
    }

    /**
     * Copies the handout's stubs of the student-owned files into {@code target}, laid out like {@code src/main/java}:
     * the base code every submission starts from, so that what all students were given never counts as similar.
     */
    static Path stubs(Path target) throws IOException {
        Path sources = KitLocations.exercises().resolve(StudentFiles.SOURCE_ROOT);
        for (String path : StudentFiles.PATHS) {
            Path copy = target.resolve(path);
            Files.createDirectories(copy.getParent());
            Files.copy(sources.resolve(path), copy);
        }
        return target;
    }

    /**
     * Returns the kit's provided sources, relative to {@code src/main/java}: a student's repository holds them beside
     * the student-owned files, and the intake accepts them there without taking them.
     */
    static Set<String> provided() throws IOException {
        Path sources = KitLocations.exercises().resolve(StudentFiles.SOURCE_ROOT);
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(file -> file.toString().endsWith(".java"))
                    .map(file -> sources.relativize(file).toString().replace('\\', '/'))
                    .filter(path -> !StudentFiles.PATHS.contains(path)).collect(Collectors.toSet());
        }
    }
}
