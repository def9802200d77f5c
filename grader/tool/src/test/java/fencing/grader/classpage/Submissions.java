package fencing.grader.classpage;

import fencing.grader.KitLocations;
import fencing.grader.StudentFiles;
import fencing.support.FileTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Lays out submissions as a class hands them in: the solutions, disguised copies of them, catalog entries, the stubs. */
final class Submissions {

    private Submissions() {
    }

    /** The solutions' student files (sources, answers, the lab's evidence) in {@code target}. */
    static Path solutions(Path target) throws IOException {
        FileTrees.copy(KitLocations.solutions().resolve(StudentFiles.SOURCE_ROOT), target.resolve(StudentFiles.SOURCE_ROOT));
        for (String file : StudentFiles.BESIDE_SOURCES) {
            Files.copy(KitLocations.solutions().resolve(file), target.resolve(file));
        }
        return target;
    }

    /** The catalog entry {@code kind/name} over the solutions, as the catalog's checks grade it. */
    static Path entry(String kindAndName, Path target) throws IOException {
        Path entry = KitLocations.catalog().resolve(kindAndName);
        solutions(target);
        if (Files.isDirectory(entry.resolve(StudentFiles.SOURCE_ROOT))) {
            FileTrees.copy(entry.resolve(StudentFiles.SOURCE_ROOT), target.resolve(StudentFiles.SOURCE_ROOT));
        }
        for (String file : StudentFiles.BESIDE_SOURCES) {
            if (Files.isRegularFile(entry.resolve(file))) {
                Files.copy(entry.resolve(file), target.resolve(file), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return target;
    }

    /** The solutions with every method moved and every local and private name renamed ({@link RenamedCopy}). */
    static Path renamedCopy(Path target) throws IOException {
        solutions(target);
        for (String path : StudentFiles.PATHS) {
            Path file = target.resolve(StudentFiles.SOURCE_ROOT).resolve(path);
            Files.writeString(file, RenamedCopy.of(Files.readString(file, StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
        }
        return target;
    }

    /** The handout as a student gets it: the stubs and the provided code, and the template of {@code ANSWERS.md}. */
    static Path stubs(Path target) throws IOException {
        FileTrees.copy(KitLocations.exercises().resolve(StudentFiles.SOURCE_ROOT), target.resolve(StudentFiles.SOURCE_ROOT));
        Files.copy(KitLocations.exercises().resolve("ANSWERS.md"), target.resolve("ANSWERS.md"));
        return target;
    }

    /** The stubs with one student-owned file taken from {@code from}'s sources: that file's version alone, nothing else written. */
    static Path stubsWith(Path from, String path, Path target) throws IOException {
        stubs(target);
        Files.copy(from.resolve(StudentFiles.SOURCE_ROOT).resolve(path), target.resolve(StudentFiles.SOURCE_ROOT).resolve(path),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return target;
    }

    /** The path below {@code src/main/java} of the one student-owned file a catalog entry changes. */
    static String changedFile(String kindAndName) throws IOException {
        Path sources = KitLocations.catalog().resolve(kindAndName).resolve(StudentFiles.SOURCE_ROOT);
        try (Stream<Path> files = Files.walk(sources)) {
            List<String> found = files.filter(Files::isRegularFile).map(file -> sources.relativize(file).toString().replace('\\', '/')).toList();
            if (found.size() != 1) {
                throw new IllegalStateException(kindAndName + " changes " + found + ", not one file");
            }
            return found.get(0);
        }
    }
}
