package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Checks that the three places a score is read from say the same for one grade: results.json, the gradebook and the Classroom checks. */
final class ReportAgreement {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CHECK = Pattern.compile("select\\(\\.tags\\[0\\] == \\\\?\"([a-z-]+)\\\\?\"\\) \\| \\.score\\] \\| add >= (\\d+)");

    private ReportAgreement() {
    }

    /**
     * Asserts that {@code grade}'s results.json score, its gradebook row (total, core plus extension) and the number of
     * GitHub Classroom checks it passes are all {@code grade.score()}.
     *
     * <p>The Classroom checks are the checked-in {@code autograding.json}'s, each evaluated as its {@code jq} program
     * reads results.json: the sum of the scores of the tests whose main tag it names, at least its threshold.
     */
    static void assertAgree(Grade grade, Path scratch) throws IOException {
        JsonNode results = JSON.readTree(Reports.resultsJson(grade, GradingPolicy.load()));
        assertThat(results.path("score").asInt(-1)).as("%s: results.json's score", grade.submission()).isEqualTo(grade.score());

        Path book = Files.createDirectories(scratch.resolve("gradebook-" + grade.submission()));
        Gradebook.write(List.of(grade), book);
        List<String> rows = Files.readAllLines(book.resolve("gradebook.csv"), StandardCharsets.UTF_8);
        assertThat(rows).as("%s: gradebook.csv", grade.submission()).hasSize(2);
        String[] row = rows.get(1).split(",", -1);
        String[] header = rows.get(0).split(",", -1);
        int score = Integer.parseInt(row[List.of(header).indexOf("score")]);
        int core = Integer.parseInt(row[List.of(header).indexOf("core")]);
        int extension = Integer.parseInt(row[List.of(header).indexOf("extension")]);
        assertThat(score).as("%s: the gradebook's score against results.json's", grade.submission()).isEqualTo(grade.score());
        assertThat(core + extension).as("%s: the gradebook's core (%d) plus extension (%d)", grade.submission(), core, extension)
                .isEqualTo(score);

        assertThat(classroomPoints(results)).as("%s: points from the GitHub Classroom checks of %s against results.json's score",
                grade.submission(), ClassroomChecks.FILE).isEqualTo(grade.score());
    }

    private static int classroomPoints(JsonNode results) throws IOException {
        JsonNode checks = JSON.readTree(KitLocations.root().resolve(ClassroomChecks.FILE).toFile());
        int points = 0;
        for (JsonNode check : checks.path("tests")) {
            Matcher run = CHECK.matcher(check.path("run").asText());
            assertThat(run.find()).as("the Classroom check '%s' has the form the kit writes: %s", check.path("name").asText(),
                    check.path("run").asText()).isTrue();
            int sum = 0;
            for (JsonNode test : results.path("tests")) {
                if (test.path("tags").path(0).asText().equals(run.group(1))) {
                    sum += test.path("score").asInt();
                }
            }
            points += sum >= Integer.parseInt(run.group(2)) ? check.path("points").asInt() : 0;
        }
        return points;
    }
}
