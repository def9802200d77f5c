package fencing.grader;

import fencing.support.Etcd;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * One offline {@code ./mvnw test}, or the handout's {@code ./kit check}, in a standalone project (the handout), with its
 * surefire reports read back.
 *
 * @param exitCode the wrapper's exit code
 * @param output   the build's output
 * @param cases    every test case the surefire reports list
 */
record MavenBuild(int exitCode, String output, List<MavenBuild.Case> cases) {

    private static final long LIMIT_MINUTES = 8;

    /**
     * One test case from a surefire report.
     *
     * @param name    the class and method
     * @param failed  whether it failed or erred
     * @param skipped whether it was skipped
     * @param message the failure's message and trace, empty when it passed
     */
    record Case(String name, boolean failed, boolean skipped, String message) {
    }

    /** Runs {@code ./mvnw -o -q -B test} in {@code project}, with this JVM's JDK and etcd, its output going to {@code log}. */
    static MavenBuild test(Path project, Path log) throws IOException, InterruptedException {
        return run(project, log, List.of("./mvnw", "-o", "-q", "-B", "test"));
    }

    /**
     * Runs the handout's {@code ./kit check ARGS -o -q} in {@code project} as {@link #test} runs Maven: the launcher's
     * switches, and the Maven command it prints, are part of what is checked.
     */
    static MavenBuild kitCheck(Path project, Path log, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("./kit", "check"));
        command.addAll(List.of(args));
        command.addAll(List.of("-o", "-q"));
        return run(project, log, command);
    }

    private static MavenBuild run(Path project, Path log, List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(project.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> environment = builder.environment();
        // Whatever tells the kit's own Maven run how to behave must not steer the handout's.
        environment.keySet().removeAll(List.of("MAVEN_ARGS", "MAVEN_BASEDIR", "MAVEN_PROJECTBASEDIR"));
        environment.put("JAVA_HOME", System.getProperty("java.home"));
        environment.put("ETCD_ENDPOINTS", Etcd.shared().endpoints());
        environment.put("ETCD_KEY_PREFIX", "handout-checks/" + UUID.randomUUID());
        Process maven = builder.start();
        try {
            if (!maven.waitFor(LIMIT_MINUTES, TimeUnit.MINUTES)) {
                throw new IllegalStateException(String.join(" ", command) + " in " + project + " did not finish in "
                        + LIMIT_MINUTES + " minutes");
            }
        } finally {
            maven.descendants().forEach(ProcessHandle::destroyForcibly);
            maven.destroyForcibly();
        }
        return new MavenBuild(maven.exitValue(), Files.readString(log, StandardCharsets.UTF_8), readReports(project));
    }

    /** The failed and erred cases. */
    List<Case> failures() {
        return cases.stream().filter(Case::failed).toList();
    }

    /** The end of the output, for assertion messages. */
    String tail() {
        return output.length() > 6000 ? "..." + output.substring(output.length() - 6000) : output;
    }

    private static List<Case> readReports(Path project) throws IOException {
        Path reports = project.resolve("target/surefire-reports");
        if (!Files.isDirectory(reports)) {
            return List.of();
        }
        List<Case> cases = new ArrayList<>();
        try (Stream<Path> files = Files.list(reports)) {
            for (Path file : files.filter(f -> f.getFileName().toString().matches("TEST-.*\\.xml")).sorted().toList()) {
                Element suite = parse(file);
                NodeList testcases = suite.getElementsByTagName("testcase");
                for (int i = 0; i < testcases.getLength(); i++) {
                    Element testcase = (Element) testcases.item(i);
                    String name = testcase.getAttribute("classname") + "." + testcase.getAttribute("name");
                    Element problem = first(testcase, "failure");
                    if (problem == null) {
                        problem = first(testcase, "error");
                    }
                    String message = problem == null ? "" : problem.getAttribute("message") + "\n" + problem.getTextContent();
                    cases.add(new Case(name, problem != null, first(testcase, "skipped") != null, message));
                }
            }
        }
        return cases;
    }

    private static Element first(Element parent, String name) {
        NodeList found = parent.getElementsByTagName(name);
        return found.getLength() == 0 ? null : (Element) found.item(0);
    }

    private static Element parse(Path file) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
        } catch (javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException e) {
            throw new IOException("cannot read the surefire report " + file + ": " + e.getMessage(), e);
        }
    }
}
