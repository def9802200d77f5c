package fencing.grader;

import fencing.support.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Turns a catalog entry (only the files it changes) into a whole submission: the solutions with the entry's files on top. */
final class CatalogSubmissions {

    private CatalogSubmissions() {
    }

    /** Lists the entries of {@code catalog/kind} (kind is {@code wrong}, {@code correct} or {@code hostile}). */
    static List<Path> entries(String kind) {
        Path dir = KitLocations.catalog().resolve(kind);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> children = Files.list(dir)) {
            return children.filter(Files::isDirectory).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether every entry is selected: no {@code catalog.only} glob narrows the catalog down. */
    static boolean allSelected() {
        return System.getProperty("catalog.only", "").isBlank();
    }

    /**
     * Lists the entries of {@code catalog/kind} to grade: all of them, or those whose name matches the glob in the system
     * property {@code catalog.only} (for example {@code -Dcatalog.only='ledger-*'}), to try a few entries at a time.
     */
    static List<Path> selected(String kind) {
        String only = System.getProperty("catalog.only", "").strip();
        if (only.isEmpty()) {
            return entries(kind);
        }
        java.nio.file.PathMatcher matcher = java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + only);
        return entries(kind).stream().filter(entry -> matcher.matches(entry.getFileName())).toList();
    }

    /**
     * Builds the submission for {@code entry} in {@code target}: its sources and answers over the solutions', without the
     * student files its {@code missing.txt} lists.
     */
    static Path assemble(Path entry, Path target) throws IOException {
        FileTrees.copy(KitLocations.solutions().resolve(StudentFiles.SOURCE_ROOT), target.resolve(StudentFiles.SOURCE_ROOT));
        if (Files.isDirectory(entry.resolve(StudentFiles.SOURCE_ROOT))) {
            FileTrees.copy(entry.resolve(StudentFiles.SOURCE_ROOT), target.resolve(StudentFiles.SOURCE_ROOT));
        }
        for (String left : missing(entry)) {
            Files.delete(target.resolve(StudentFiles.SOURCE_ROOT).resolve(left));
        }
        for (String file : StudentFiles.BESIDE_SOURCES) {
            Path own = entry.resolve(file);
            Path copied = Files.isRegularFile(own) ? own : KitLocations.solutions().resolve(file);
            if (Files.isRegularFile(copied)) {
                Files.copy(copied, target.resolve(file));
            }
        }
        Path study = Files.isDirectory(entry.resolve(StudentFiles.STUDY)) ? entry.resolve(StudentFiles.STUDY)
                : KitLocations.solutions().resolve(StudentFiles.STUDY);
        FileTrees.copy(study, target.resolve(StudentFiles.STUDY));
        return target;
    }

    /** Reads the rule phrases an entry's failing messages must contain, one per line; none when the file is missing (which CatalogTests refuses). */
    static List<String> expectedRules(Path entry) throws IOException {
        return Files.exists(entry.resolve("expected-rule.txt")) ? lines(entry, "expected-rule.txt") : List.of();
    }

    /** Reads the student files an entry leaves out of the solutions, below {@code src/main/java}; none without {@code missing.txt}. */
    static List<String> missing(Path entry) throws IOException {
        return Files.exists(entry.resolve("missing.txt")) ? lines(entry, "missing.txt") : List.of();
    }

    /** Reads the phrases an entry's report must hold ({@code expected-report.txt}), one per line. */
    static List<String> expectedReport(Path entry) throws IOException {
        return Files.readAllLines(entry.resolve("expected-report.txt")).stream()
                .map(String::strip).filter(line -> !line.isEmpty()).toList();
    }

    /** Reads the tags an entry must lose points on. */
    static List<String> expectedTags(Path entry) throws IOException {
        return lines(entry, "expected-tags.txt");
    }

    /** Reads an entry's list file: one item a line, blank lines and {@code #} comments left out. */
    private static List<String> lines(Path entry, String name) throws IOException {
        return Files.readAllLines(entry.resolve(name)).stream()
                .map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
    }
}
