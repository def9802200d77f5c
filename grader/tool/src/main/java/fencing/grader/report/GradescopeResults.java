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
 *
 * <p>Gradescope hides a student's total while any test is hidden from them, so the explanations for staff are no
 * hidden tests: they are kept in the top-level {@code extra_data} (stored with the submission, never shown to students;
 * the class page reads them there), and become zero-point entries only when the policy shows them to students; the
 * notes for staff ({@link Grade#staffNotes()}) are kept there too, and never shown. Every
 * output is plain text ({@code output_format}), so that {@code List<String>} in a compiler's error is shown as
 * written, and cut to the platforms' one limit ({@link ReportText#testOutput}).
 */
public final class GradescopeResults {

    /** Its file name. */
    public static final String FILE = "results.json";
    /** The key of {@code extra_data} that holds the explanations for staff. */
    public static final String EXPLANATIONS = "explanations";
    /** The key of {@code extra_data} that holds the notes for staff (whether the predictions were committed first). */
    public static final String STAFF_NOTES = "staff_notes";

    private static final String TEXT = "text";

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
        root.put("output", ReportText.output(ReportText.overall(grade)));
        root.put("output_format", TEXT);
        root.put("visibility", "visible");
        // run_autograder's own output is for staff only: it prints the explanations to read there.
        root.put("stdout_visibility", "hidden");
        List<Map<String, Object>> tests = new ArrayList<>();
        for (TestResult result : grade.scored() ? grade.results() : List.<TestResult>of()) {
            Map<String, Object> test = new LinkedHashMap<>();
            test.put("name", result.test().name());
            test.put("score", result.score());
            test.put("max_score", result.test().points());
            test.put("status", result.passed() ? "passed" : "failed");
            test.put("output", ReportText.testOutput(result.message()));
            test.put("output_format", TEXT);
            test.put("tags", result.tags());
            test.put("visibility", policy.visibility(result.test()).gradescope());
            tests.add(test);
        }
        if (policy.explanations() != GradingPolicy.Visibility.HIDDEN) {
            for (Explanation explanation : grade.explanations()) {
                tests.add(explanationEntry(explanation, policy));
            }
        }
        root.put("tests", tests);
        Map<String, Object> extra = new LinkedHashMap<>();
        if (!grade.explanations().isEmpty()) {
            extra.put(EXPLANATIONS, grade.explanations().stream().map(GradescopeResults::forStaff).toList());
        }
        if (!grade.staffNotes().isEmpty()) {
            extra.put(STAFF_NOTES, grade.staffNotes());
        }
        if (!extra.isEmpty()) {
            root.put("extra_data", extra);
        }
        return JSON.writeValueAsString(root);
    }

    /** An explanation as {@code extra_data} keeps it for staff: the student's text whole, with the rubric to read it by. */
    private static Map<String, Object> forStaff(Explanation explanation) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("number", explanation.number());
        entry.put("question", explanation.question());
        entry.put("text", explanation.text().strip());
        entry.put("rubric", explanation.rubric());
        entry.put("figure_problems", explanation.figureProblems());
        return entry;
    }

    /** A zero-point entry that passes an explanation on to staff, with the rubric to read it by. */
    private static Map<String, Object> explanationEntry(Explanation explanation, GradingPolicy policy) {
        Map<String, Object> test = new LinkedHashMap<>();
        test.put("name", "ANSWERS.md question " + explanation.number() + ": " + explanation.question() + " (explanation, for staff)");
        test.put("score", 0);
        test.put("max_score", 0);
        test.put("status", explanation.written() ? "passed" : "failed");
        test.put("output", ReportText.testOutput(ReportText.forStaff(explanation)));
        test.put("output_format", TEXT);
        test.put("tags", List.of("reasoning", "explanation"));
        test.put("visibility", policy.explanations().gradescope());
        return test;
    }
}
