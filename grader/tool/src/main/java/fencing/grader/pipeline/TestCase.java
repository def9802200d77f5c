package fencing.grader.pipeline;

import java.util.List;

/**
 * One test the grading process expects to hear about, with the points and tags from its own copy of the test class.
 *
 * @param uniqueId    the JUnit Platform unique ID
 * @param className   the test class
 * @param methodName  the test method
 * @param displayName the name a student reads
 * @param points      the points a pass earns
 * @param tags        the properties the test checks
 */
public record TestCase(String uniqueId, String className, String methodName, String displayName,
                       int points, List<String> tags) {

    /** Returns a short, readable name: the class's simple name and the display name. */
    public String name() {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        return simple + " › " + displayName;
    }
}
