package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.grader.batch.Gradebook;
import fencing.grader.files.BatchFolder;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.report.ArtemisSuite;
import fencing.grader.report.GradescopeResults;
import fencing.grader.report.Platform;
import fencing.grader.report.Reports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * Checks that every place a score is read from says the same for one grade: the kit's {@code results.json}, the
 * gradebook, Classroom 50's {@code result.json} and PrairieLearn's {@code results.json}.
 */
final class ReportAgreement {

    /** A Classroom 50 runner's identity of a submission, as its environment gives it. */
    static final Map<String, String> CLASSROOM50 = Map.of("CLASSROOM", "fencing-2026", "ASSIGNMENT", "fencing-tokens",
            "SUBMISSION_TAG", "submit/2026-12-01T10-00-00Z-abc1234", "COMMIT_URL", "https://github.com/c/r/commit/abc1234",
            "RELEASE_URL", "https://github.com/c/r/releases/tag/submit%2F2026-12-01T10-00-00Z-abc1234",
            "REVIEW_URL", "https://github.com/c/r/compare/base...abc1234");

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReportAgreement() {
    }

    /** Writes {@code grade}'s reports, every platform's included, and its gradebook into {@code scratch}, and checks them. */
    static void assertAgree(Grade grade, Path scratch) throws IOException {
        Path reports = Files.createDirectories(scratch.resolve("reports-" + BatchFolder.reportFolder(grade.submission())));
        Reports.write(grade, reports, GradingPolicy.load(), EnumSet.allOf(Platform.class), CLASSROOM50);
        Gradebook.write(List.of(grade), reports);
        assertFilesAgree(grade, reports);
    }

    /** Checks the reports written into {@code reports} against each other and against {@code grade}. */
    static void assertFilesAgree(Grade grade, Path reports) throws IOException {
        String who = grade.submission();
        // Read raw, each file as the platform that takes it reads it: what must agree is the files as written.
        JsonNode results = JSON.readTree(reports.resolve(GradescopeResults.FILE).toFile());
        assertThat(results.path("score").asInt(-1)).as("%s: results.json's score", who).isEqualTo(grade.score());

        // Read raw by the header's names, as a spreadsheet takes the gradebook.
        List<String> rows = Files.readAllLines(reports.resolve(BatchFolder.GRADEBOOK_CSV), StandardCharsets.UTF_8);
        assertThat(rows).as("%s: gradebook.csv", who).hasSize(2);
        List<String> header = CsvLine.split(rows.get(0));
        List<String> row = CsvLine.split(rows.get(1));
        int score = Integer.parseInt(row.get(header.indexOf("score")));
        int core = Integer.parseInt(row.get(header.indexOf("core")));
        int extension = Integer.parseInt(row.get(header.indexOf("extension")));
        assertThat(score).as("%s: the gradebook's score against results.json's", who).isEqualTo(grade.score());
        assertThat(core + extension).as("%s: the gradebook's core (%d) plus extension (%d)", who, core, extension).isEqualTo(score);

        JsonNode classroom = JSON.readTree(Platform.CLASSROOM50.file(reports).toFile());
        assertThat(classroom.path("score").asInt(-1)).as("%s: Classroom 50's score", who).isEqualTo(grade.score());
        assertThat(classroom.path("max-score").asInt(-1)).as("%s: Classroom 50's max-score", who).isEqualTo(grade.maxScore());
        assertThat(sum(classroom, "score")).as("%s: the sum of Classroom 50's test scores", who).isEqualTo(grade.score());
        assertThat(sum(classroom, "max-score")).as("%s: the sum of Classroom 50's test max-scores", who).isEqualTo(grade.maxScore());

        // Artemis scores by its own weight per test name, which the instructors' guide sets to each test's points.
        Map<String, ArtemisResults.Result> artemis = ArtemisResults.read(Platform.ARTEMIS.file(reports));
        assertThat(artemis.keySet()).as("%s: the tests Artemis reads", who)
                .containsExactlyInAnyOrderElementsOf(grade.results().stream().map(result -> ArtemisSuite.testName(result.test())).toList());
        assertThat(grade.results()).as("%s: each test's verdict as Artemis reads it", who)
                .allSatisfy(result -> assertThat(artemis.get(ArtemisSuite.testName(result.test())).passed())
                        .as("%s: Artemis's verdict of %s", who, result.test().name()).isEqualTo(result.passed()));

        JsonNode prairie = JSON.readTree(Platform.PRAIRIELEARN.file(reports).toFile());
        if (grade.status() == Grade.Status.NOT_GRADED) {
            assertThat(prairie.path("gradable").asBoolean(true)).as("%s: PrairieLearn's gradable, not fit to grade", who).isFalse();
            return;
        }
        assertThat(sum(prairie, "points")).as("%s: the sum of PrairieLearn's test points", who).isEqualTo(grade.score());
        assertThat(sum(prairie, "max_points")).as("%s: the sum of PrairieLearn's max_points", who).isEqualTo(grade.maxScore());
        assertThat(Math.round(prairie.path("score").asDouble(-1) * grade.maxScore()))
                .as("%s: PrairieLearn's score (a share) times the maximum", who).isEqualTo((long) grade.score());
    }

    private static int sum(JsonNode result, String field) {
        int sum = 0;
        for (JsonNode test : result.path("tests")) {
            sum += test.path(field).asInt();
        }
        return sum;
    }
}
