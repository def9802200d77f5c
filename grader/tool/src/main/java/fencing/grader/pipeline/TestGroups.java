package fencing.grader.pipeline;

import fencing.grading.TestGroup;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which group each test runs in ({@link SideBySide}): the one its class names with {@link TestGroup}, read from the grading
 * process's own copy of the test classes, or {@value TestGroup#MAIN}.
 *
 * <p>The grouping depends on the tests alone, never on the machine, the grader's options or how many grades run at once,
 * so a class always runs after the same classes of its group and a submission's verdicts cannot depend on it.
 */
final class TestGroups {

    private static final Pattern NAME = Pattern.compile("[a-z]+(-[a-z]+)*");

    private TestGroups() {
    }

    /**
     * Returns {@code tests} by group, each group in the order of {@code tests}, the groups in the order their first test
     * comes in.
     *
     * @throws IllegalStateException if a test class names a group that is not lower-case letters and hyphens
     */
    static Map<String, List<TestCase>> of(List<TestCase> tests) {
        return tests.stream().collect(Collectors.groupingBy(TestGroups::groupOf, LinkedHashMap::new, Collectors.toList()));
    }

    /** Returns the group of {@code test}: its outermost class's {@link TestGroup}, as a nested class runs with its outer one. */
    static String groupOf(TestCase test) {
        Class<?> type = load(test.className());
        while (type.getEnclosingClass() != null) {
            type = type.getEnclosingClass();
        }
        TestGroup named = type.getAnnotation(TestGroup.class);
        if (named == null) {
            return TestGroup.MAIN;
        }
        if (!NAME.matcher(named.value()).matches()) {
            throw new IllegalStateException(type.getName() + ": @TestGroup(\"" + named.value() + "\") must name its group in"
                    + " lower-case letters and hyphens");
        }
        return named.value();
    }

    private static Class<?> load(String className) {
        try {
            return Class.forName(className, false, TestGroups.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the grading process cannot load its own copy of the test class " + className, e);
        }
    }
}
