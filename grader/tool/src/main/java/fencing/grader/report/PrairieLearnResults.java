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
 * <p>PrairieLearn shows a student the whole file at once, so a test the policy does not show yet appears by its
 * properties only, and the explanations for staff are left out. The file stays well under PrairieLearn's 1 MB limit:
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
        for (TestResult result : grade.results()) {
            Map<String, Object> test = new LinkedHashMap<>();
            test.put("name", ReportText.shownName(result, policy));
            test.put("description", String.join(", ", result.tags()));
            test.put("points", result.score());
            test.put("max_points", result.test().points());
            test.put("message", ReportText.testOutput(ReportText.shownMessage(result, policy)));
            test.put("output", "");
            tests.add(test);
        }
        root.put("tests", tests);
        return JSON.writeValueAsString(root);
    }
}
