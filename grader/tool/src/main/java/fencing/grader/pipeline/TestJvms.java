package fencing.grader.pipeline;

import fencing.grading.TestJvm;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which test JVM each test runs in: the one its class names with {@link TestJvm}, read from the grading process's own copy
 * of the test classes, or {@value TestJvm#MAIN}.
 *
 * <p>The grouping depends on the tests alone, never on the machine, the grader's options or how many grades run at once,
 * so a class always runs after the same classes in the same JVM and a submission's verdicts cannot depend on it.
 */
final class TestJvms {

    private static final Pattern NAME = Pattern.compile("[a-z]+(-[a-z]+)*");

    private TestJvms() {
    }

    /**
     * Returns {@code tests} grouped by JVM, each group in the order of {@code tests}, the groups in the order their
     * first test comes in.
     *
     * @throws IllegalStateException if a test class names a JVM that is not lower-case letters and hyphens
     */
    static Map<String, List<TestCase>> of(List<TestCase> tests) {
        return tests.stream().collect(Collectors.groupingBy(TestJvms::jvmOf, LinkedHashMap::new, Collectors.toList()));
    }

    /** Returns the JVM of {@code test}: its outermost class's {@link TestJvm}, as a nested class runs with its outer one. */
    static String jvmOf(TestCase test) {
        Class<?> type = load(test.className());
        while (type.getEnclosingClass() != null) {
            type = type.getEnclosingClass();
        }
        TestJvm named = type.getAnnotation(TestJvm.class);
        if (named == null) {
            return TestJvm.MAIN;
        }
        if (!NAME.matcher(named.value()).matches()) {
            throw new IllegalStateException(type.getName() + ": @TestJvm(\"" + named.value() + "\") must name its JVM in"
                    + " lower-case letters and hyphens");
        }
        return named.value();
    }

    private static Class<?> load(String className) {
        try {
            return Class.forName(className, false, TestJvms.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the grading process cannot load its own copy of the test class " + className, e);
        }
    }
}
