package fencing.grader;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipFile;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.discovery.ClassNameFilter;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** Which tests a grading run runs: the hidden graded tests, or the public self-check tests. */
public enum TestSuite {

    /** The hidden graded tests, shipped in the grader. */
    HIDDEN,

    /** The public self-check tests that students have in {@code exercises/}. */
    PUBLIC;

    /** The tag of tests that need a real etcd. */
    public static final String ETCD_TAG = "etcd";

    /**
     * Lists this suite's tests, with points and tags read from the grading process's own copy of the test classes.
     *
     * @param includeEtcd whether tests tagged {@value #ETCD_TAG} are included
     */
    public List<TestCase> discover(boolean includeEtcd) {
        LauncherDiscoveryRequestBuilder builder = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClasspathRoots(Set.of(root())))
                .filters(ClassNameFilter.includeClassNamePatterns(".*Tests"))
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "false");
        if (!includeEtcd) {
            builder.filters(TagFilter.excludeTags(ETCD_TAG));
        }
        LauncherDiscoveryRequest request = builder.build();
        TestPlan plan = LauncherFactory.create().discover(request);
        List<TestCase> cases = new ArrayList<>();
        for (TestIdentifier root : plan.getRoots()) {
            collect(plan, root, cases);
        }
        if (cases.isEmpty()) {
            throw new IllegalStateException("no " + name().toLowerCase() + " tests found under " + root());
        }
        return cases;
    }

    private void collect(TestPlan plan, TestIdentifier node, List<TestCase> cases) {
        TestSource source = node.getSource().orElse(null);
        if (source instanceof MethodSource method) {
            // A method is one graded unit, whether it is a plain test or a template with many invocations.
            cases.add(toCase(node, method));
            return;
        }
        for (TestIdentifier child : plan.getChildren(node)) {
            collect(plan, child, cases);
        }
    }

    private TestCase toCase(TestIdentifier node, MethodSource source) {
        Graded graded = gradedAnnotation(source);
        int points = this == HIDDEN ? (graded == null ? 1 : graded.points()) : 1;
        List<String> tags = graded == null ? List.of() : List.of(graded.tags());
        return new TestCase(node.getUniqueId(), source.getClassName(), source.getMethodName(),
                node.getDisplayName(), points, tags);
    }

    private static Graded gradedAnnotation(MethodSource source) {
        return source.getJavaMethod().getAnnotation(Graded.class);
    }

    /** Returns the class path entry that holds this suite's test classes. */
    public Path root() {
        if (this == HIDDEN) {
            try {
                return Path.of(Graded.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            } catch (URISyntaxException e) {
                throw new IllegalStateException("cannot locate the grader's classes", e);
            }
        }
        return classPath().stream()
                .filter(entry -> entry.getFileName().toString().endsWith("-tests.jar")
                        || entry.getFileName().toString().equals("test-classes"))
                .filter(TestSuite::holdsPublicTests)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        "the public tests (the fencing-exercises test jar) are not on the class path"));
    }

    private static boolean holdsPublicTests(Path entry) {
        String marker = "fencing/basics/";
        if (Files.isDirectory(entry)) {
            return Files.isDirectory(entry.resolve(marker)) && entry.toString().contains("exercises");
        }
        try (ZipFile jar = new ZipFile(entry.toFile())) {
            return jar.getEntry(marker) != null && entry.getFileName().toString().startsWith("fencing-exercises");
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** Returns this JVM's class path entries, in order, without duplicates. */
    public static List<Path> classPath() {
        Set<String> seen = new HashSet<>();
        List<Path> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isBlank() && seen.add(entry)) {
                entries.add(Path.of(entry).toAbsolutePath());
            }
        }
        return entries;
    }
}
