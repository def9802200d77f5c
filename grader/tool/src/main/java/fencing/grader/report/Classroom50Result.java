package fencing.grader.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestResult;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code result.json} as Classroom 50 reads it (schema {@code classroom50/result/v1}): the submission's identity from the
 * runner's environment, whole-point scores, and one entry per graded test.
 *
 * <p>Classroom 50 publishes the result in the student's own repository, where nothing can wait for a due date: a test
 * the policy does not show yet appears by its properties only, without its message, and the explanations for staff are
 * left out. Each entry keeps the kit's own fields beside Classroom 50's ({@code name}, {@code status}, {@code output},
 * {@code tags}, {@code visibility}); the top level holds Classroom 50's fields alone, as its schema requires.
 */
final class Classroom50Result {

    /** The schema this writes. */
    static final String SCHEMA = "classroom50/result/v1";
    /** The environment variables the runner gives the autograder, which name the submission. */
    static final List<String> IDENTITY = List.of("CLASSROOM", "ASSIGNMENT", "SUBMISSION_TAG", "COMMIT_URL", "RELEASE_URL");

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    private Classroom50Result() {
    }

    /** Returns the identity variables missing from {@code environment}. */
    static List<String> missing(Map<String, String> environment) {
        return IDENTITY.stream().filter(name -> environment.get(name) == null || environment.get(name).isBlank()).toList();
    }

    /**
     * Returns the result of {@code grade}, which has a score.
     *
     * @param environment the runner's environment, with every {@link #IDENTITY} variable
     * @param now         the grading's time; the runner replaces it with the commit's
     */
    static String json(Grade grade, GradingPolicy policy, Map<String, String> environment, Instant now) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("schema", SCHEMA);
        root.put("classroom", environment.get("CLASSROOM"));
        root.put("assignment", environment.get("ASSIGNMENT"));
        root.put("submission", environment.get("SUBMISSION_TAG"));
        root.put("commit", environment.get("COMMIT_URL"));
        root.put("release", environment.get("RELEASE_URL"));
        root.put("review", Optional.ofNullable(environment.get("REVIEW_URL")).filter(url -> !url.isBlank())
                .orElse(environment.get("COMMIT_URL")));
        root.put("datetime", UTC.format(now.truncatedTo(ChronoUnit.SECONDS)));
        root.put("score", grade.score());
        root.put("max-score", grade.maxScore());
        List<Map<String, Object>> tests = new ArrayList<>();
        for (TestResult result : grade.results()) {
            Map<String, Object> test = new LinkedHashMap<>();
            String name = ReportText.shownName(result, policy);
            test.put("test-name", name);
            test.put("passed", result.passed());
            test.put("score", result.score());
            test.put("max-score", result.test().points());
            test.put("name", name);
            test.put("status", result.passed() ? "passed" : "failed");
            // Why a submission was not graded tells nothing of any test, and is what the student must fix.
            String message = grade.status() == Grade.Status.NOT_GRADED ? grade.reason() : ReportText.shownMessage(result, policy);
            test.put("output", ReportText.testOutput(message));
            test.put("tags", result.tags());
            test.put("visibility", policy.visibility(result.test()).gradescope());
            tests.add(test);
        }
        root.put("tests", tests);
        return JSON.writeValueAsString(root);
    }
}
