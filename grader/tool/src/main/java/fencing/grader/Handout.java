package fencing.grader;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Comment;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Writes the student repository: {@code exercises/} as a standalone Maven project, plus the lab's sources.
 *
 * <p>Everything comes from the kit as it is: the provided code, the stubs and the public tests are
 * copied, and the project's {@code pom.xml} is generated from the kit's parent and exercises poms, so
 * that the handout builds with the kit's own dependency and plugin versions. Solutions, hidden tests
 * and the grader are never read, so they cannot leak into the handout.
 */
public final class Handout {

    /** Where the lab's sources go in the handout, compiled with the student's code. */
    public static final String LAB_DIR = "lab";

    private static final String OWN_GROUP = "fencing";
    private static final Set<String> SKIPPED_PLUGIN_GROUPS = Set.of("org.pitest");

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
     * Writes the handout into {@code out}, which must be missing or empty.
     *
     * @return the files written, relative to {@code out}
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
        String pom = pom();
        Files.createDirectories(target);
        List<Path> written = new ArrayList<>();
        copyTree(kit.resolve("exercises/src"), target.resolve("src"), written, target);
        copyIfPresent(kit.resolve("exercises/ANSWERS.md"), target.resolve("ANSWERS.md"), written, target);
        copyTree(kit.resolve(".mvn/wrapper"), target.resolve(".mvn/wrapper"), written, target);
        copyIfPresent(kit.resolve("mvnw"), target.resolve("mvnw"), written, target);
        copyIfPresent(kit.resolve("mvnw.cmd"), target.resolve("mvnw.cmd"), written, target);
        if (hasLab()) {
            copyTree(kit.resolve("labs/src/main"), target.resolve(LAB_DIR).resolve("src/main"), written, target);
            copyIfPresent(kit.resolve("labs/README.md"), target.resolve(LAB_DIR).resolve("README.md"), written, target);
        }
        writeText(target.resolve("pom.xml"), pom, written, target);
        writeText(target.resolve("README.md"), readme(), written, target);
        writeText(target.resolve(".gitignore"), "target/\n.idea/\n*.iml\n.vscode/\n", written, target);
        return written;
    }

    /** Returns the handout's {@code pom.xml}: the kit's parent and exercises poms merged into one project without a parent. */
    public String pom() throws IOException {
        Document parent = parse(kit.resolve("pom.xml"));
        Document exercises = parse(kit.resolve("exercises/pom.xml"));
        Document labs = hasLab() ? parse(kit.resolve("labs/pom.xml")) : null;
        Element parentRoot = parent.getDocumentElement();
        Element exercisesRoot = exercises.getDocumentElement();

        Document pom = newDocument();
        Element project = (Element) pom.importNode(parentRoot, false);
        pom.appendChild(project);
        appendText(pom, project, "modelVersion", "4.0.0");
        appendText(pom, project, "groupId", text(parentRoot, "groupId"));
        appendText(pom, project, "artifactId", text(exercisesRoot, "artifactId"));
        appendText(pom, project, "version", text(parentRoot, "version"));
        appendText(pom, project, "name", "Fencing exercise");
        appendText(pom, project, "description", text(exercisesRoot, "description"));

        Element properties = importChild(pom, project, parentRoot, "properties");
        removeChildren(properties, node -> node.getNodeName().equals("exec.skip"));
        if (labs != null) {
            child(labs.getDocumentElement(), "properties").ifPresent(labProperties -> {
                for (Element property : elements(labProperties)) {
                    if (!property.getNodeName().equals("exec.skip") && child(properties, property.getNodeName()).isEmpty()) {
                        properties.appendChild(pom.importNode(property, true));
                    }
                }
            });
        }

        Element management = importChild(pom, project, parentRoot, "dependencyManagement");
        removeChildren(child(management, "dependencies").orElseThrow(),
                node -> OWN_GROUP.equals(text((Element) node, "groupId")));

        Element dependencies = importChild(pom, project, exercisesRoot, "dependencies");
        removeChildren(dependencies, node -> OWN_GROUP.equals(text((Element) node, "groupId")));
        if (labs != null) {
            Set<String> present = new HashSet<>();
            elements(dependencies).forEach(dependency -> present.add(coordinates(dependency)));
            child(labs.getDocumentElement(), "dependencies").ifPresent(labDependencies -> {
                for (Element dependency : elements(labDependencies)) {
                    String scope = text(dependency, "scope");
                    if (!OWN_GROUP.equals(text(dependency, "groupId")) && !"test".equals(scope)
                            && present.add(coordinates(dependency))) {
                        dependencies.appendChild(pom.importNode(dependency, true));
                    }
                }
            });
        }

        Element build = pom.createElement("build");
        project.appendChild(build);
        if (labs != null) {
            Element resources = pom.createElement("resources");
            build.appendChild(resources);
            for (String directory : List.of("src/main/resources", LAB_DIR + "/src/main/resources")) {
                Element resource = pom.createElement("resource");
                resources.appendChild(resource);
                appendText(pom, resource, "directory", directory);
            }
        }
        Element pluginManagement = importChild(pom, build, child(parentRoot, "build").orElseThrow(), "pluginManagement");
        removeChildren(child(pluginManagement, "plugins").orElseThrow(),
                node -> SKIPPED_PLUGIN_GROUPS.contains(text((Element) node, "groupId")));
        Element plugins = pom.createElement("plugins");
        build.appendChild(plugins);
        child(parentRoot, "build").flatMap(b -> child(b, "plugins")).ifPresent(own ->
                elements(own).forEach(plugin -> plugins.appendChild(pom.importNode(plugin, true))));
        child(exercisesRoot, "build").flatMap(b -> child(b, "plugins")).ifPresent(own -> {
            for (Element plugin : elements(own)) {
                // The kit's exercises module publishes its tests as a jar for the grader; a student needs none of that.
                if (!plugin.getTextContent().contains("test-jar")) {
                    plugins.appendChild(pom.importNode(plugin, true));
                }
            }
        });
        if (labs != null) {
            plugins.appendChild(labCompilerPlugin(pom));
            Optional<String> command = labCommandLine(labs);
            if (command.isPresent()) {
                plugins.appendChild(labExecPlugin(pom, command.get()));
                argsProperty(command.get()).filter(name -> child(properties, name).isEmpty())
                        .ifPresent(name -> appendText(pom, properties, name, ""));
            }
        }
        if (!child(plugins, "plugin").isPresent()) {
            build.removeChild(plugins);
        }
        child(exercisesRoot, "profiles").ifPresent(profiles -> {
            Element kept = (Element) pom.importNode(profiles, true);
            // The kit's own profiles (e.g. skipping tests inside the kit's build) look for a grader beside the module.
            removeChildren(kept, node -> node.getTextContent().contains("grader"));
            if (child(kept, "profile").isPresent()) {
                project.appendChild(kept);
            }
        });
        return serialize(pom, "The exercise's build, generated from the fencing kit's own build: same versions, no parent.");
    }

    /** Returns the student's README: what to implement, how to check it, how to run the lab. */
    public String readme() throws IOException {
        StringBuilder md = new StringBuilder();
        md.append("# Leases, locks and fencing tokens\n\n");
        md.append("A lease grants a lock for a limited time, but a holder that pauses wakes up still believing it owns the lock.\n")
                .append("A fencing token, a number that grows with every grant, lets the protected resource reject the stale holder's\n")
                .append("late write, because only the resource sees every write. In this exercise you build that, first in memory,\n")
                .append("then against a real etcd and a real SQLite database.\n\n");
        md.append("## What to implement\n\n")
                .append("Fill in these files. Each stub states its rule in its Javadoc; its methods throw \"Not implemented yet\"\n")
                .append("until you write them, and the constants in `Predictions` hold placeholders for your answers.\n\n");
        for (String owned : StudentFiles.PATHS) {
            md.append("- `").append(StudentFiles.SOURCE_ROOT).append('/').append(owned).append("`\n");
        }
        md.append("\nEverything else is provided. Keep the names and signatures as they are: only these files are graded,\n")
                .append("by hidden tests that go further than the ones you have here.\n");
        if (Files.isRegularFile(kit.resolve("exercises/ANSWERS.md"))) {
            md.append("Write your answers to the questions in `ANSWERS.md`.\n");
        }
        md.append("\n**Part 4, the extension.** `Fencing.preContact`, `OwnerCheckingSink`, `IdempotentLedger` and `EtcdOwnerCheck`\n")
                .append("are the extension tasks: the limits of a high-water mark (a late write before the new owner has written,\n")
                .append("forged tokens, retried requests). Their tests are tagged `extension`; your course may leave them out.\n");
        md.append("\n## Check yourself\n\n")
                .append("You need Java 17 or newer. Run the public tests with the Maven wrapper:\n\n")
                .append("```\n./mvnw test            # on Windows: mvnw.cmd test\n```\n\n")
                .append("A failing test says what was expected and why. Tests tagged `etcd` need a real etcd, found in this order:\n")
                .append("`ETCD_ENDPOINTS` (e.g. `http://127.0.0.1:2379`), an `etcd` binary on your `PATH` (Debian/Ubuntu:\n")
                .append("`sudo apt-get install etcd-server`, macOS: `brew install etcd`), or a running Docker engine.\n")
                .append("To run only the in-memory tests: `./mvnw test -DexcludedGroups=etcd`.\n");
        if (hasLab()) {
            md.append("\n## The lab\n\n")
                    .append("The lab in `").append(LAB_DIR).append("/` runs experiments on your code, against a real etcd and SQLite.\n");
            Optional<String> command = labCommandLine(parse(kit.resolve("labs/pom.xml")));
            Optional<String> argsProperty = command.flatMap(Handout::argsProperty);
            if (command.isEmpty()) {
                md.append("Its entry points are the classes with a `main` method in `").append(LAB_DIR).append("/src/main/java`.");
            } else if (argsProperty.isPresent()) {
                md.append("Run it with:\n\n```\n./mvnw -q compile exec:exec -D").append(argsProperty.get())
                        .append("=\"--help\"\n```\n\n")
                        .append("and replace `--help` with the options you want.");
            } else {
                md.append("Run it with `./mvnw -q compile exec:exec`.");
            }
            if (Files.isRegularFile(kit.resolve("labs/README.md"))) {
                md.append(" `").append(LAB_DIR).append("/README.md` explains what it does.");
            }
            md.append('\n');
        }
        return md.toString();
    }

    /** Returns the java command line the kit's labs module runs its lab with ({@code exec:exec}), wherever its pom has it. */
    private static Optional<String> labCommandLine(Document labs) {
        NodeList found = labs.getElementsByTagName("commandlineArgs");
        return found.getLength() == 0 ? Optional.empty() : Optional.of(found.item(0).getTextContent().strip());
    }

    /** Returns the property the lab's command line takes its options from, e.g. {@code study.args}. */
    private static Optional<String> argsProperty(String commandLine) {
        Matcher property = Pattern.compile("\\$\\{([\\w.-]+)}").matcher(commandLine);
        return property.find() ? Optional.of(property.group(1)) : Optional.empty();
    }

    /** Runs the lab with {@code ./mvnw compile exec:exec}, on the student's classes, from the handout's root. */
    private static Element labExecPlugin(Document pom, String commandLine) {
        Element plugin = pom.createElement("plugin");
        appendText(pom, plugin, "groupId", "org.codehaus.mojo");
        appendText(pom, plugin, "artifactId", "exec-maven-plugin");
        Element configuration = pom.createElement("configuration");
        plugin.appendChild(configuration);
        appendText(pom, configuration, "executable", "${java.home}/bin/java");
        appendText(pom, configuration, "workingDirectory", "${project.basedir}");
        appendText(pom, configuration, "commandlineArgs", commandLine);
        return plugin;
    }

    /** Compiles the lab's sources together with the student's, so the lab always runs on the student's code. */
    private static Element labCompilerPlugin(Document pom) {
        Element plugin = pom.createElement("plugin");
        appendText(pom, plugin, "groupId", "org.apache.maven.plugins");
        appendText(pom, plugin, "artifactId", "maven-compiler-plugin");
        Element executions = pom.createElement("executions");
        plugin.appendChild(executions);
        Element execution = pom.createElement("execution");
        executions.appendChild(execution);
        appendText(pom, execution, "id", "default-compile");
        Element configuration = pom.createElement("configuration");
        execution.appendChild(configuration);
        Element roots = pom.createElement("compileSourceRoots");
        configuration.appendChild(roots);
        appendText(pom, roots, "compileSourceRoot", "${project.basedir}/src/main/java");
        appendText(pom, roots, "compileSourceRoot", "${project.basedir}/" + LAB_DIR + "/src/main/java");
        return plugin;
    }

    private static String coordinates(Element dependency) {
        return text(dependency, "groupId") + ":" + text(dependency, "artifactId") + ":" + text(dependency, "type")
                + ":" + text(dependency, "classifier");
    }

    private static Document parse(Path file) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document document = factory.newDocumentBuilder().parse(file.toFile());
            stripWhitespace(document.getDocumentElement());
            return document;
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static Document newDocument() {
        try {
            return DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void stripWhitespace(Node node) {
        for (Node child = node.getFirstChild(); child != null; ) {
            Node next = child.getNextSibling();
            if (child.getNodeType() == Node.TEXT_NODE && child.getTextContent().isBlank()) {
                node.removeChild(child);
            } else if (child.getNodeType() == Node.ELEMENT_NODE) {
                stripWhitespace(child);
            }
            child = next;
        }
    }

    private static String serialize(Document pom, String header) {
        try {
            var transformer = TransformerFactory.newInstance().newTransformer();
            transformer.setOutputProperty(OutputKeys.INDENT, "yes");
            transformer.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            transformer.setOutputProperty("{http://xml.apache.org/xslt}indent-amount", "2");
            StringWriter text = new StringWriter();
            transformer.transform(new DOMSource(pom), new StreamResult(text));
            return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- " + header + " -->\n" + text.toString().strip() + "\n";
        } catch (TransformerException e) {
            throw new IllegalStateException("cannot write the handout's pom.xml", e);
        }
    }

    private static Element importChild(Document pom, Element into, Element from, String name) {
        Element source = child(from, name)
                .orElseThrow(() -> new IllegalStateException("the kit's pom has no <" + name + "> in <" + from.getNodeName() + ">"));
        Element copy = (Element) pom.importNode(source, true);
        into.appendChild(copy);
        return copy;
    }

    private static void appendText(Document document, Element into, String name, String value) {
        Element element = document.createElement(name);
        element.setTextContent(value);
        into.appendChild(element);
    }

    /** Removes the matching child elements, with the comments just before them (they speak of what is removed). */
    private static void removeChildren(Element parent, Predicate<Node> matches) {
        for (Element element : elements(parent)) {
            if (matches.test(element)) {
                Node before = element.getPreviousSibling();
                while (before instanceof Comment) {
                    Node earlier = before.getPreviousSibling();
                    parent.removeChild(before);
                    before = earlier;
                }
                parent.removeChild(element);
            }
        }
    }

    private static List<Element> elements(Element parent) {
        List<Element> found = new ArrayList<>();
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element element) {
                found.add(element);
            }
        }
        return found;
    }

    private static Optional<Element> child(Element parent, String name) {
        return elements(parent).stream().filter(element -> element.getNodeName().equals(name)).findFirst();
    }

    private static String text(Element parent, String name) {
        return child(parent, name).map(element -> element.getTextContent().strip()).orElse("");
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> children = Files.list(dir)) {
            return children.findAny().isEmpty();
        }
    }

    private static void copyIfPresent(Path from, Path to, List<Path> written, Path root) throws IOException {
        if (Files.isRegularFile(from)) {
            Files.createDirectories(to.getParent());
            Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
            written.add(root.relativize(to));
        }
    }

    private static void copyTree(Path from, Path to, List<Path> written, Path root) throws IOException {
        if (!Files.isDirectory(from)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : paths.sorted(Comparator.naturalOrder()).toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
                    written.add(root.relativize(target));
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static void writeText(Path file, String text, List<Path> written, Path root) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
        written.add(root.relativize(file));
    }
}
