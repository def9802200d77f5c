package fencing.grader.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.grader.files.ResultsFile;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every platform's result file holds a submission's texts as written, in plain text, cut to one limit that says so. */
class ResultFileLimitsTests {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> CLASSROOM50 = Map.of("CLASSROOM", "c", "ASSIGNMENT", "a", "SUBMISSION_TAG", "s",
            "COMMIT_URL", "https://example.org/commit", "RELEASE_URL", "https://example.org/release");
    private static final String FLOOD = "java.lang.IllegalStateException: " + "a majority, ".repeat(25_000);

    @Test
    @DisplayName("a 300,000-character message is cut to 4,000 characters in every platform's file, which says how many were cut;"
            + " a short one is kept whole")
    void aFloodedMessageIsCutAndSaysSo() throws Exception {
        Grade grade = new Grade("flood", true, "", List.of(result("floods", false, FLOOD), result("short", false, "expected 2, got 3"),
                result("passes", true, "")), List.of(), "", 1.0);
        GradingPolicy policy = GradingPolicy.load();
        String cut = "\n… [cut: " + String.format(java.util.Locale.ROOT, "%,d", FLOOD.length() - 3_952) + " more characters]";

        Map<String, String> outputs = Map.of(
                "results.json (Gradescope)", ResultsFile.parse(GradescopeResults.json(grade, policy)).tests().get(0).output(),
                // Read raw: Classroom 50's and PrairieLearn's files are the platforms' own formats, which no record of the kit reads.
                "Classroom 50's result.json", test(JSON.readTree(Classroom50Result.json(grade, policy, CLASSROOM50, Instant.EPOCH)), 0)
                        .path("output").asText(),
                "PrairieLearn's results.json", test(JSON.readTree(PrairieLearnResults.json(grade, policy)), 0).path("message").asText());

        outputs.forEach((file, output) -> {
            assertThat(output).as("the flooded test's text in %s", file).hasSizeLessThanOrEqualTo(ReportText.TEST_OUTPUT_LIMIT)
                    .startsWith(FLOOD.substring(0, 3_952)).endsWith(cut);
        });
        assertThat(ResultsFile.parse(GradescopeResults.json(grade, policy)).tests().get(1).output())
                .as("a short message in results.json").isEqualTo("expected 2, got 3");
    }

    @Test
    @DisplayName("a compiler's error keeps List<String> as written: results.json's outputs are plain text, and a long one is"
            + " cut to 64,000 characters")
    void compilerOutputIsPlainTextWithinItsLimit() throws Exception {
        String error = "Resource.java:12: error: incompatible types: java.util.List<java.lang.String> cannot be converted to int\n";
        Grade grade = new Grade("generic", false, error + "x".repeat(100_000), List.of(result("t", false, "did not compile")),
                List.of(), "", 1.0);

        ResultsFile results = ResultsFile.parse(GradescopeResults.json(grade, GradingPolicy.load()));

        assertThat(results.outputFormat()).as("the top-level output_format").isEqualTo("text");
        assertThat(results.tests().get(0).outputFormat()).as("a test's output_format").isEqualTo("text");
        assertThat(results.output()).as("the top-level output").contains(error).hasSizeLessThanOrEqualTo(ReportText.OUTPUT_LIMIT)
                .contains(ReportText.CUT);
    }

    private static JsonNode test(JsonNode results, int index) {
        return results.path("tests").path(index);
    }

    private static TestResult result(String name, boolean passed, String message) {
        TestCase test = new TestCase("[engine:junit-jupiter]/[class:fencing.basics.QuorumGradedTests]/[method:" + name + "()]",
                "fencing.basics.QuorumGradedTests", name, name, 1, List.of("quorum"));
        return new TestResult(test, passed, message, 5);
    }
}
