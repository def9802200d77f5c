package fencing.grader.pipeline;

import fencing.grader.KitLocations;
import fencing.grading.Graded;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.discovery.ClassNameFilter;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.discovery.PackageNameFilter;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.EngineFilter;
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

    /** The package of the provided test infrastructure, whose own tests are never part of a grade. */
    static final String PROVIDED_INFRASTRUCTURE = "fencing.support";

    /** The JUnit engine every suite's tests run on. */
    static final String JUPITER = "junit-jupiter";

    /** The tag of tests that need a real etcd. */
    public static final String ETCD_TAG = "etcd";

    /** The graded tag of the extension tasks (Part 4 and the restore drill), which a course may leave out. */
    public static final String EXTENSION_TAG = "extension";

    /**
     * Lists this suite's tests, with points and tags read from the grading process's own copy of the test classes.
     *
     * @param includeEtcd whether tests tagged {@value #ETCD_TAG} are included
     */
    public List<TestCase> discover(boolean includeEtcd) {
        LauncherDiscoveryRequestBuilder builder = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClasspathRoots(Set.of(root())))
                .filters(ClassNameFilter.includeClassNamePatterns(".*Tests"))
                // Every graded test is a Jupiter test; without this, ArchUnit's engine (on the class path for the structure
                // tests' API) would import every class of the suite looking for tests of its own.
                .filters(EngineFilter.includeEngines(JUPITER))
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "false");
        if (!includeEtcd) {
            builder.filters(TagFilter.excludeTags(ETCD_TAG));
        }
        // The public tests' jar also holds the tests of the provided infrastructure, which are the kit's, not the student's.
        builder.filters(PackageNameFilter.excludePackageNames(PROVIDED_INFRASTRUCTURE));
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

    /** Returns the jar or class directory that holds this suite's test classes, as the build configured it. */
    public Path root() {
        return KitLocations.tests(this == HIDDEN ? KitLocations.HIDDEN_TESTS : KitLocations.PUBLIC_TESTS);
    }
}
