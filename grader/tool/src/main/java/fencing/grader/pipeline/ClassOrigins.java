package fencing.grader.pipeline;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The proof, taken before a grade is scored, that the test JVM runs the submission's classes and not the kit's stubs of
 * them: each class the submission compiled is loaded there from the submission's own class directory.
 *
 * <p>The test JVM loads each class without initializing it, so no code of the submission's has run when it reports
 * where each came from ({@link TestEvent.Loaded}); the grader, not that JVM, decides whether the report proves it. A
 * class path that puts the kit's provided code first, a copy of it that lost its place, or anything else that would
 * grade the stubs in the student's place ends the grade with "grading could not run", never with a score.
 *
 * @param classes   the submission's class directory
 * @param compiled  the binary names of the classes the submission compiled
 */
record ClassOrigins(Path classes, List<String> compiled) {

    /** The system property that names the file of class names, one per line, the test JVM reports on. */
    static final String PROPERTY = "fencing.grader.studentClasses";

    /** Copies {@code compiled}. */
    ClassOrigins {
        compiled = List.copyOf(compiled);
    }

    /** Writes the class names the test JVM must report on into {@code file}, and returns it. */
    Path writeList(Path file) throws IOException {
        return Files.write(file, compiled, StandardCharsets.UTF_8);
    }

    /**
     * Returns where each class listed in {@code list} comes from in this JVM, loaded without being initialized: its code
     * source's location, or why it has none.
     */
    static Map<String, String> locate(Path list, ClassLoader loader) throws IOException {
        Map<String, String> locations = new LinkedHashMap<>();
        for (String name : Files.readAllLines(list, StandardCharsets.UTF_8)) {
            if (name.isBlank()) {
                continue;
            }
            try {
                CodeSource source = Class.forName(name, false, loader).getProtectionDomain().getCodeSource();
                locations.put(name, source == null || source.getLocation() == null ? "no code source"
                        : source.getLocation().toString());
            } catch (ClassNotFoundException | LinkageError e) {
                locations.put(name, "not loadable: " + e);
            }
        }
        return locations;
    }

    /**
     * Checks the test JVM's report.
     *
     * @throws Misplaced naming each class that was not loaded from the submission's class directory, and where it was
     */
    void check(Map<String, String> reported) {
        Path expected = real(classes);
        List<String> wrong = new ArrayList<>();
        for (String name : compiled) {
            String location = reported.get(name);
            Path from = location == null ? null : path(location);
            if (from == null || !real(from).equals(expected)) {
                wrong.add(name + " from " + (location == null ? "nowhere (not reported)" : location));
            }
        }
        if (!wrong.isEmpty()) {
            throw new Misplaced("the test JVM did not load the submission's own classes from " + classes + ", so it would"
                    + " have graded other code in their place (the kit's stubs, if its provided code came first on the class"
                    + " path): " + String.join("; ", wrong));
        }
    }

    private static Path path(String location) {
        try {
            URI uri = new URI(location);
            return "file".equals(uri.getScheme()) ? Path.of(uri) : null;
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    private static Path real(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }

    /** The test JVM would have graded other classes than the submission's: the grade cannot be trusted. */
    static final class Misplaced extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Misplaced(String message) {
            super(message);
        }
    }
}
