package fencing.grader.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import fencing.grader.pipeline.Explanation;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code results.json} in Gradescope's autograder format, which is also the kit's own: every other report and the
 * gradebook agree with it. Each test carries the policy's visibility, which Gradescope enforces.
 */
public final class GradescopeResults {

    /** Its file name. */
    public static final String FILE = "results.json";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private GradescopeResults() {
    }

    /** Returns the results of {@code grade}, each test visible as the policy says. */
    public static String json(Grade grade, GradingPolicy policy) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        if (grade.scored()) {
            // A grade that could not run has no score: Gradescope then fails the run, and CI retries it.
            root.put("score", grade.score());
        }
        root.put("max_score", grade.maxScore());
        root.put("output", ReportText.overall(grade));
        root.put("visibility", "visible");
        List<Map<String, Object>> tests = new ArrayList<>();
        for (TestResult result : grade.scored() ? grade.results() : List.<TestResult>of()) {
            Map<String, Object> test = new LinkedHashMap<>();
            test.put("name", result.test().name());
            test.put("score", result.score());
            test.put("max_score", result.test().points());
            test.put("status", result.passed() ? "passed" : "failed");
            test.put("output", result.message());
            test.put("tags", result.tags());
            test.put("visibility", policy.visibility(result.test()).gradescope());
            tests.add(test);
        }
        for (Explanation explanation : grade.explanations()) {
            tests.add(explanationEntry(explanation, policy));
        }
        root.put("tests", tests);
        return JSON.writeValueAsString(root);
    }

    /** A zero-point entry that passes an explanation on to staff, with the rubric to read it by. */
    private static Map<String, Object> explanationEntry(Explanation explanation, GradingPolicy policy) {
        Map<String, Object> test = new LinkedHashMap<>();
        test.put("name", "ANSWERS.md question " + explanation.number() + ": " + explanation.question() + " (explanation, for staff)");
        test.put("score", 0);
        test.put("max_score", 0);
        test.put("status", explanation.written() ? "passed" : "failed");
        test.put("output", ReportText.forStaff(explanation));
        test.put("tags", List.of("reasoning", "explanation"));
        test.put("visibility", policy.explanations().gradescope());
        return test;
    }
}
