package fencing.grader.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code results.json} as PrairieLearn's external grading reads it: the score as a share of the points, one entry per
 * graded test with its points, and {@code gradable: false} with the reason as a format error for a submission not fit to
 * grade, which charges the student no attempt.
 *
 * <p>PrairieLearn shows a student the whole file at once, on every attempt, and holds the grade of record: the tests
 * of a property the policy does not show yet (the closed answers of {@code ANSWERS.md}) are one combined entry, "N of
 * M points", with no result per test, so that changing one answer between attempts does not show, question by
 * question, which answer the key takes. The explanations for staff are left out. The file stays well under PrairieLearn's 1 MB limit:
 * every message is cut at {@value ReportText#TEST_OUTPUT_LIMIT} characters.
 */
final class PrairieLearnResults {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private PrairieLearnResults() {
    }

    /** Returns the results of {@code grade}, which has a score (graded, or not fit to grade). */
    static String json(Grade grade, GradingPolicy policy) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        if (grade.status() == Grade.Status.NOT_GRADED) {
            root.put("gradable", false);
            root.put("format_errors", grade.reason().lines().filter(line -> !line.isBlank()).toList());
            root.put("message", ReportText.output(grade.reason()));
            return JSON.writeValueAsString(root);
        }
        root.put("gradable", true);
        root.put("score", grade.maxScore() == 0 ? 0.0 : (double) grade.score() / grade.maxScore());
        root.put("message", ReportText.output(ReportText.overall(grade)));
        root.put("output", ReportText.output(grade.lastOutput()));
        List<Map<String, Object>> tests = new ArrayList<>();
        Map<String, Map<String, Object>> combined = new LinkedHashMap<>();
        for (TestResult result : grade.results()) {
            GradingPolicy.Visibility visibility = policy.visibility(result.test());
            if (!visibility.shownNow()) {
                String tag = result.tags().get(0);
                Map<String, Object> entry = combined.computeIfAbsent(tag, key -> {
                    Map<String, Object> made = entry(policy.tags().get(key).title(), key, 0, 0, "The tests of " + key
                            + ", together: the grading policy shows each one's own result " + (visibility == GradingPolicy.Visibility.HIDDEN
                            ? "to staff only" : visibility.gradescope().replace('_', ' ') + ", which this file cannot wait for") + ".");
                    tests.add(made);
                    return made;
                });
                entry.merge("points", result.score(), (a, b) -> (Integer) a + (Integer) b);
                entry.merge("max_points", result.test().points(), (a, b) -> (Integer) a + (Integer) b);
                continue;
            }
            tests.add(entry(result.test().name(), String.join(", ", result.tags()), result.score(), result.test().points(),
                    ReportText.testOutput(result.message())));
        }
        for (Map<String, Object> entry : combined.values()) {
            entry.put("name", entry.get("name") + ": " + entry.get("points") + " of " + entry.get("max_points") + " points");
        }
        root.put("tests", tests);
        return JSON.writeValueAsString(root);
    }

    private static Map<String, Object> entry(String name, String description, int points, int maxPoints, String message) {
        Map<String, Object> test = new LinkedHashMap<>();
        test.put("name", name);
        test.put("description", description);
        test.put("points", points);
        test.put("max_points", maxPoints);
        test.put("message", message);
        test.put("output", "");
        return test;
    }
}
