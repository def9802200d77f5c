package fencing.grader.handout;

import fencing.grader.StudentFiles;
import fencing.support.FileTrees;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Writes the student repository: {@code exercises/} as a standalone Maven project, plus the lab's sources.
 *
 * <p>The provided code, the stubs and the public tests are copied from the kit as they are. The
 * handout's {@code pom.xml}, {@code README.md}, {@code ./kit} launcher and {@code .gitignore} are the
 * template files in this module's {@code handout/} resources; the pom's {@code @name@} placeholders
 * are filled from the kit's parent pom, so that the handout builds with the kit's own versions. The
 * lab's README is the kit's {@code labs/README.md} as {@link HandoutMarkdown} shows it to students, and its
 * {@code activity.html} is the kit's {@code labs/activity.html}.
 * Solutions, hidden tests and the grader are never read, so they cannot leak into the handout.
 *
 * <p>The handout is a git repository whose one commit holds every file written, so that a student's own commits
 * (the predictions before {@code Resource}, which the grader's note on the history looks for) start from the stubs.
 */
public final class Handout {

    /** Where the lab's sources go in the handout, compiled with the student's code. */
    public static final String LAB_DIR = "lab";

    /** The lesson's story to play in a browser before any code, beside the lab's README in the handout. */
    public static final String ACTIVITY = "activity.html";

    private static final String TEMPLATES = "/handout/";
    /** The kit's own tests of its provided test infrastructure: they test the kit, not the student's work. */
    private static final String KIT_OWN_TESTS = "src/test/java/fencing/support";
    private static final Pattern PLACEHOLDER = Pattern.compile("@([\\w.:-]+)@");

    private final Path kit;

    /**
     * Creates a writer for the kit in {@code kit}.
     *
     * @throws IllegalArgumentException if {@code kit} is not the kit's root directory
     */
    public Handout(Path kit) {
        this.kit = kit.toAbsolutePath().normalize();
        for (String required : List.of("pom.xml", "exercises/pom.xml", "exercises/src/main/java", "mvnw", ".mvn/wrapper")) {
            if (!Files.exists(this.kit.resolve(required))) {
                throw new IllegalArgumentException("not the fencing kit's root (no " + required + "): " + this.kit);
            }
        }
    }

    /** Returns whether the kit has a lab whose sources go into the handout. */
    public boolean hasLab() {
        return Files.isDirectory(kit.resolve("labs/src/main/java")) && Files.isRegularFile(kit.resolve("labs/pom.xml"));
    }

    /**
     * Writes the handout into {@code out}, which must be missing or empty, and commits it as a new git repository.
     *
     * @return the files written, relative to {@code out}, without git's own
     * @throws IllegalArgumentException if {@code out} holds anything, or lies inside one of the kit's modules
     */
    public List<Path> write(Path out) throws IOException {
        Path target = out.toAbsolutePath().normalize();
        for (String module : List.of("exercises", "solutions", "grader", "labs", ".mvn")) {
            if (target.startsWith(kit.resolve(module))) {
                throw new IllegalArgumentException("the handout cannot go inside the kit's " + module + "/: " + target);
            }
        }
        if (Files.exists(target) && (!Files.isDirectory(target) || !isEmpty(target))) {
            throw new IllegalArgumentException("the handout directory must be missing or empty: " + target);
        }
        for (String owned : StudentFiles.PATHS) {
            if (!Files.isRegularFile(kit.resolve("exercises").resolve(StudentFiles.SOURCE_ROOT).resolve(owned))) {
                throw new IllegalStateException("the kit's exercises/ lacks the stub " + owned);
            }
        }
        // Everything that can fail on a bad template is done before the first file is written.
        String pom = pom();
        Optional<String> labReadme = labReadme();
        HandoutRepository.requireGit();
        Files.createDirectories(target);
        FileTrees.copy(kit.resolve("exercises/src"), target.resolve("src"));
        FileTrees.delete(target.resolve(KIT_OWN_TESTS));
        copyIfPresent(kit.resolve("exercises/ANSWERS.md"), target.resolve("ANSWERS.md"));
        FileTrees.copy(kit.resolve(".mvn/wrapper"), target.resolve(".mvn/wrapper"));
        // Maven's own JVM flags: a self-check is a short build, which the optimising compiler only slows down.
        copyIfPresent(kit.resolve(".mvn/jvm.config"), target.resolve(".mvn/jvm.config"));
        copyIfPresent(kit.resolve("mvnw"), target.resolve("mvnw"));
        copyIfPresent(kit.resolve("mvnw.cmd"), target.resolve("mvnw.cmd"));
        if (hasLab()) {
            FileTrees.copy(kit.resolve("labs/src/main"), target.resolve(LAB_DIR).resolve("src/main"));
            copyIfPresent(kit.resolve("labs/" + ACTIVITY), target.resolve(LAB_DIR).resolve(ACTIVITY));
        }
        if (labReadme.isPresent()) {
            Files.writeString(target.resolve(LAB_DIR).resolve("README.md"), labReadme.get(), StandardCharsets.UTF_8);
        }
        Files.writeString(target.resolve("pom.xml"), pom, StandardCharsets.UTF_8);
        Files.writeString(target.resolve("README.md"), readme(), StandardCharsets.UTF_8);
        Files.writeString(target.resolve(".gitignore"), template("gitignore"), StandardCharsets.UTF_8);
        Path launcher = target.resolve("kit");
        Files.writeString(launcher, template("kit"), StandardCharsets.UTF_8);
        if (!launcher.toFile().setExecutable(true, false)) {
            throw new IOException("cannot make the handout's launcher executable: " + launcher);
        }
        HandoutRepository.commitAll(target);
        return files(target);
    }

    /** Returns the handout's {@code pom.xml}: its template with every {@code @name@} filled from the kit's parent pom. */
    public String pom() throws IOException {
        return fill(template("pom.xml"), kitValues(), "the handout's pom.xml template");
    }

    /**
     * Returns the handout's {@code README.md}: its template, which names every student file once, in the part it belongs
     * to (the kit's checks hold it to {@link StudentFiles}), and no placeholder.
     */
    static String readme() throws IOException {
        return fill(template("README.md"), Map.of(), "the handout's README.md template");
    }

    /** Returns the lab's README as the handout shows it, if the kit has a lab with a README. */
    public Optional<String> labReadme() throws IOException {
        Path readme = kit.resolve("labs/README.md");
        if (!hasLab() || !Files.isRegularFile(readme)) {
            return Optional.empty();
        }
        return Optional.of(HandoutMarkdown.forHandout(Files.readString(readme, StandardCharsets.UTF_8), readme.toString()));
    }

    /**
     * Returns {@code template} with each {@code @name@} replaced by {@code values.get(name)}.
     *
     * @throws IllegalStateException naming the placeholder, if {@code values} has no value for one
     */
    public static String fill(String template, Map<String, String> values, String what) {
        Matcher placeholder = PLACEHOLDER.matcher(template);
        StringBuilder filled = new StringBuilder();
        while (placeholder.find()) {
            String value = values.get(placeholder.group(1));
            if (value == null) {
                throw new IllegalStateException(what + " names @" + placeholder.group(1)
                        + "@, which the kit's pom.xml does not define (known: " + values.keySet() + ")");
            }
            placeholder.appendReplacement(filled, Matcher.quoteReplacement(value));
        }
        placeholder.appendTail(filled);
        return filled.toString();
    }

    /**
     * Returns what the templates may name from the kit's parent pom: each property by its name,
     * {@code project.version}, and each managed plugin's version as {@code plugin:ARTIFACT-ID}.
     */
    public Map<String, String> kitValues() throws IOException {
        Element project = parse(kit.resolve("pom.xml")).getDocumentElement();
        Map<String, String> values = new LinkedHashMap<>();
        values.put("project.version", child(project, "version").map(Handout::text).orElseThrow(() ->
                new IllegalStateException("the kit's pom.xml has no <version>")));
        child(project, "properties").ifPresent(properties ->
                children(properties).forEach(property -> values.put(property.getTagName(), text(property))));
        child(project, "build").flatMap(build -> child(build, "pluginManagement")).flatMap(managed -> child(managed, "plugins"))
                .ifPresent(plugins -> children(plugins).forEach(plugin -> {
                    Optional<String> artifact = child(plugin, "artifactId").map(Handout::text);
                    Optional<String> version = child(plugin, "version").map(Handout::text);
                    if (artifact.isPresent() && version.isPresent()) {
                        values.put("plugin:" + artifact.get(), version.get());
                    }
                }));
        return values;
    }

    /** Returns the template file {@code name} from this module's {@code handout/} resources. */
    static String template(String name) throws IOException {
        try (InputStream in = Handout.class.getResourceAsStream(TEMPLATES + name)) {
            if (in == null) {
                throw new IllegalStateException("the grader's resources lack the handout template " + TEMPLATES + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Document parse(Path file) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(file.toFile());
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static List<Element> children(Element parent) {
        List<Element> found = new ArrayList<>();
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element element) {
                found.add(element);
            }
        }
        return found;
    }

    private static Optional<Element> child(Element parent, String name) {
        return children(parent).stream().filter(element -> element.getTagName().equals(name)).findFirst();
    }

    private static String text(Element element) {
        return element.getTextContent().strip();
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> children = Files.list(dir)) {
            return children.findAny().isEmpty();
        }
    }

    private static void copyIfPresent(Path from, Path to) throws IOException {
        if (Files.isRegularFile(from)) {
            Files.createDirectories(to.getParent());
            Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
        }
    }

    private static List<Path> files(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(Files::isRegularFile).map(root::relativize)
                    .filter(path -> !path.startsWith(HandoutRepository.GIT_DIR)).sorted().toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
