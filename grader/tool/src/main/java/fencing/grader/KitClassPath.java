package fencing.grader;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The grader's class path, each entry with the role the build gave it: the kit's tool, its provided code, its hidden
 * and public tests, or a library.
 *
 * <p>A role is never guessed from an entry's name or kind: the build names the kit's four entries with system
 * properties ({@code kit.tool}, {@code kit.provided}, {@code kit.hidden-tests}, {@code kit.public-tests}, set by the
 * grader's pom and its launcher argument file), and every other entry is a library. A copy of an entry (the sandbox
 * makes one for each entry {@code nobody} cannot read) keeps the role of the original, whatever it is called.
 *
 * @param entries the class path in order, without duplicates
 */
public record KitClassPath(List<Entry> entries) {

    /** The system property naming the grading tool's own classes. */
    public static final String TOOL = "kit.tool";
    /** The system property naming the provided code: the exercises' classes with the stubs of the student's classes. */
    public static final String PROVIDED = "kit.provided";

    /** What a class path entry is to the kit. */
    public enum Role {
        /** The grading tool: the grader and the test JVM's runner. */
        TOOL(KitClassPath.TOOL),
        /** The provided code and the stubs of the student-owned classes, which a submission's classes replace. */
        PROVIDED(KitClassPath.PROVIDED),
        /** The hidden graded tests. */
        HIDDEN_TESTS(KitLocations.HIDDEN_TESTS),
        /** The public self-check tests. */
        PUBLIC_TESTS(KitLocations.PUBLIC_TESTS),
        /** Anything else on the class path: JUnit, jetcd, SQLite and the rest. */
        LIBRARY(null);

        private final String property;

        Role(String property) {
            this.property = property;
        }

        /** Whether entries of this role are the kit's own code, which a submission must not change. */
        public boolean kitOwn() {
            return this != LIBRARY;
        }
    }

    /**
     * One class path entry.
     *
     * @param path where the entry is
     * @param role what it is to the kit
     */
    public record Entry(Path path, Role role) {
    }

    /** Copies {@code entries}. */
    public KitClassPath {
        entries = List.copyOf(entries);
    }

    /**
     * Returns this JVM's class path with the roles its system properties give.
     *
     * @throws IllegalStateException if a kit role is not configured, or names an entry that is not on the class path
     */
    public static KitClassPath ofThisJvm() {
        Map<Role, Path> named = new EnumMap<>(Role.class);
        for (Role role : Role.values()) {
            if (role.property == null) {
                continue;
            }
            String value = System.getProperty(role.property);
            if (value == null || value.isBlank()) {
                throw new IllegalStateException("the grader's class path roles are not configured: -D" + role.property
                        + " is not set; start the grader through ./kit, or with java @grader/tool/target/launcher/grade.args");
            }
            named.put(role, Path.of(value).toAbsolutePath().normalize());
        }
        return of(System.getProperty("java.class.path"), named);
    }

    /**
     * Returns {@code classPath} (entries separated by the platform's separator) with the kit's entries {@code named} by
     * role, and every other entry a library.
     *
     * @throws IllegalStateException if a named entry is not on the class path
     */
    static KitClassPath of(String classPath, Map<Role, Path> named) {
        Set<Path> seen = new HashSet<>();
        List<Entry> entries = new ArrayList<>();
        for (String element : classPath.split(File.pathSeparator)) {
            if (element.isBlank()) {
                continue;
            }
            Path path = Path.of(element).toAbsolutePath().normalize();
            if (seen.add(path)) {
                Role role = named.entrySet().stream().filter(kit -> kit.getValue().equals(path)).map(Map.Entry::getKey)
                        .findFirst().orElse(Role.LIBRARY);
                entries.add(new Entry(path, role));
            }
        }
        named.forEach((role, path) -> {
            if (!seen.contains(path)) {
                throw new IllegalStateException("-D" + role.property + "=" + path + " is not on the grader's class path: "
                        + "the build that wrote the launcher and the class path disagree; build the kit again (./kit test)");
            }
        });
        return new KitClassPath(entries);
    }

    /** Returns the paths of every entry, in order. */
    public List<Path> paths() {
        return entries.stream().map(Entry::path).toList();
    }

    /** Returns the paths of the entries of {@code role}, in order. */
    public List<Path> paths(Role role) {
        return entries.stream().filter(entry -> entry.role() == role).map(Entry::path).toList();
    }

    /** Returns the path of the kit's one entry of {@code role}. */
    public Path path(Role role) {
        List<Path> paths = paths(role);
        if (paths.size() != 1) {
            throw new IllegalStateException("expected one class path entry of role " + role + ", found " + paths);
        }
        return paths.get(0);
    }

    /**
     * Returns the class path of a submission's JVM: the library jars, then any other library entries, then the
     * submission's {@code classes}, then the kit's own entries in their order.
     *
     * <p>The library jars come first because a class data archive maps only jars, and only for a class path that
     * begins with the one it was made with; no library holds a class of the kit's or the student's. The submission's
     * classes come before the provided code, whose stubs of the same classes they replace.
     */
    public List<Path> forSubmission(Path classes) {
        List<Path> classPath = new ArrayList<>(libraryJars());
        paths(Role.LIBRARY).stream().filter(path -> !classPath.contains(path)).forEach(classPath::add);
        classPath.add(classes);
        entries.stream().filter(entry -> entry.role().kitOwn()).map(Entry::path).forEach(classPath::add);
        return classPath;
    }

    /** Returns the libraries that are jar files, in order: what a class data archive can hold. */
    public List<Path> libraryJars() {
        return paths(Role.LIBRARY).stream().filter(path -> path.getFileName().toString().endsWith(".jar")).toList();
    }
}
