package fencing.grader.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PrairieLearn's results.json, which a student reads after every attempt, on the platform that holds the grade of record. */
class PrairieLearnResultsTests {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TITLE = "The closed answers in ANSWERS.md";

    @TempDir
    Path dir;

    @Test
    @DisplayName("the closed answers, shown only after the due date, are one entry 'N of M points': two attempts with"
            + " different answers right get the same file, so changing one answer per attempt does not reveal the key")
    void closedAnswersAreOneCombinedEntry() throws Exception {
        GradingPolicy policy = GradingPolicy.load();
        assertThat(policy.tags().get("reasoning").visibility().shownNow()).as("the kit's policy shows the closed answers now").isFalse();

        // Read raw: the subject is PrairieLearn's own results.json format, not the kit's record.
        JsonNode first = JSON.readTree(PrairieLearnResults.json(attempt(true, false, true, false), policy));
        JsonNode second = JSON.readTree(PrairieLearnResults.json(attempt(false, true, false, true), policy));

        assertThat(second).as("results.json of an attempt with the other two answers right").isEqualTo(first);
        List<JsonNode> reasoning = StreamSupport.stream(first.path("tests").spliterator(), false)
                .filter(test -> test.path("description").asText().contains("reasoning")).toList();
        assertThat(reasoning).as("entries of the closed answers").singleElement().satisfies(entry -> {
            assertThat(entry.path("name").asText()).as("its name").isEqualTo(TITLE + ": 2 of 4 points");
            assertThat(entry.path("points").asInt()).as("its points").isEqualTo(2);
            assertThat(entry.path("max_points").asInt()).as("its max_points").isEqualTo(4);
            assertThat(entry.path("message").asText()).as("its message").contains("after due date");
        });
        assertThat(first.path("score").asDouble()).as("the score, which still counts every answer").isEqualTo(3.0 / 5);
    }

    @Test
    @DisplayName("with the closed answers visible in the policy, each question is an entry of its own, and the two attempts differ")
    void visibleClosedAnswersAreShownOneByOne() throws Exception {
        Path file = dir.resolve("policy.yml");
        String kit = Files.readString(GradingPolicy.kitFile());
        String visible = kit.replaceFirst("(?s)(  reasoning:\n(?:    [^\n]*\n)*?    visibility: )after_due_date", "$1visible");
        assertThat(visible).as("the policy with the closed answers made visible").isNotEqualTo(kit);
        Files.writeString(file, visible);
        GradingPolicy policy = GradingPolicy.load(file);

        // Read raw: the subject is PrairieLearn's own results.json format, not the kit's record.
        JsonNode first = JSON.readTree(PrairieLearnResults.json(attempt(true, false, true, false), policy));
        JsonNode second = JSON.readTree(PrairieLearnResults.json(attempt(false, true, false, true), policy));

        assertThat(StreamSupport.stream(first.path("tests").spliterator(), false)
                .filter(test -> test.path("description").asText().contains("reasoning")))
                .as("entries of the closed answers, visible").hasSize(4).noneMatch(test -> test.path("name").asText().startsWith(TITLE));
        assertThat(second).as("results.json of an attempt with the other answers right").isNotEqualTo(first);
    }

    /** A grade whose quorum test passes and whose four closed answers are right where {@code right} says. */
    private static Grade attempt(boolean... right) {
        List<TestResult> results = new ArrayList<>(List.of(StudentViewsTests.result("quorumIsAMajority", "quorum", true, "")));
        for (int i = 0; i < right.length; i++) {
            results.add(StudentViewsTests.result("question" + (i + 1), "reasoning", right[i],
                    right[i] ? "" : "question " + (i + 1) + ": the key takes another answer"));
        }
        return new Grade("student", true, "", results, List.of(), "", 1.0);
    }
}
