package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestResult;
import fencing.grader.report.ConsoleLine;
import fencing.grader.report.GradescopeResults;
import fencing.grader.report.Platform;
import fencing.grader.report.Reports;
import fencing.reasoning.AnswerKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What each platform shows a student before the due date, read from the grader's own files of one real grade: a
 * submission that fails tests of a property the policy hides ({@code quorum}, made {@code hidden} here), the closed
 * answers and the predictions (shown after the due date), with explanations and a predict-first note for staff. None
 * of those views may hold a withheld test's name or message, the answer key or the rubric; {@code staff-notes.md}
 * holds what is for staff. Each view is a function of the grade, so no platform runs here: the template tests check
 * that each template shows the student these files and no other ({@code GradescopeTemplateTests} and the others).
 * {@code report.StudentViewsTests} holds the same views to their limits on made-up grades.
 */
@Tag("etcd")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StudentViewsBeforeTheDueDateTests {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Shorter lines of a message ("expected: 3") could be any report's; longer ones are the test's own. */
    private static final int DISTINCT_LINE = 20;

    // Shared by every case, which all read the one grade made before them.
    @TempDir
    static Path dir;

    private Grade grade;
    private GradingPolicy policy;
    private Path reports;

    @BeforeAll
    void gradeASubmissionWithWithheldFailures() throws Exception {
        Path catalog = KitLocations.catalog().resolve("wrong");
        Path submission = CatalogSubmissions.assemble(catalog.resolve("quorum-even-sizes"), dir.resolve("alice"));
        Files.copy(catalog.resolve("predictions-wrong").resolve(StudentFiles.SOURCE_ROOT).resolve("fencing/basics/Predictions.java"),
                submission.resolve(StudentFiles.SOURCE_ROOT).resolve("fencing/basics/Predictions.java"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.copy(catalog.resolve("answers-lease-id-is-token/ANSWERS.md"), submission.resolve("ANSWERS.md"),
                StandardCopyOption.REPLACE_EXISTING);
        StudentHistory.commitPredictionsFirst(submission, dir);
        grade = GradingFixtures.grade(submission);
        GradingPolicy kit = GradingPolicy.load();
        Map<String, GradingPolicy.Tag> tags = new LinkedHashMap<>(kit.tags());
        GradingPolicy.Tag quorum = tags.get("quorum");
        tags.put("quorum", new GradingPolicy.Tag(quorum.title(), quorum.points(), quorum.part(), GradingPolicy.Visibility.HIDDEN));
        policy = new GradingPolicy(kit.countExtensions(), kit.explanations(), tags, kit.limits());
        reports = dir.resolve("reports");
        Reports.write(grade, reports, policy, EnumSet.allOf(Platform.class), ReportAgreement.CLASSROOM50);

        assertThat(withheld().filter(result -> !result.passed()).flatMap(result -> result.tags().stream()).distinct())
                .as("the properties of the withheld tests the submission fails; failures: %s", grade.results().stream()
                        .filter(result -> !result.passed()).map(result -> result.test().name()).toList())
                .contains("quorum", "reasoning", "predictions");
        assertThat(grade.staffNotes()).as("the notes for staff").isNotEmpty();
        assertThat(grade.explanations()).as("the explanations for staff").isNotEmpty();
    }

    @Test
    @DisplayName("Gradescope: the entries results.json makes visible now and its output hold no withheld test, answer key,"
            + " rubric or note for staff, while the withheld tests are there for Gradescope to show later")
    void gradescopeShowsNothingWithheld() throws Exception {
        JsonNode results = JSON.readTree(reports.resolve(GradescopeResults.FILE).toFile());
        List<JsonNode> tests = StreamSupport.stream(results.path("tests").spliterator(), false).toList();
        StringBuilder visible = new StringBuilder(results.path("output").asText());
        tests.stream().filter(test -> test.path("visibility").asText().equals("visible"))
                .forEach(test -> visible.append('\n').append(test.path("name").asText()).append('\n').append(test.path("output").asText()));

        assertThat(results.path("stdout_visibility").asText()).as("who sees run_autograder's output").isEqualTo("hidden");
        assertThat(tests).as("results.json's tests, each withheld one marked for Gradescope to hold back")
                .filteredOn(test -> withheld().anyMatch(result -> result.test().name().equals(test.path("name").asText())))
                .hasSize((int) withheld().count())
                .allSatisfy(test -> assertThat(test.path("visibility").asText()).as("visibility of %s", test.path("name"))
                        .isIn("hidden", "after_due_date"));
        assertShowsNothingWithheld("Gradescope's visible entries and output", visible.toString());
    }

    @Test
    @DisplayName("Classroom 50: result.json, the Release body (summary.md) and the job's log hold no withheld test,"
            + " answer key, rubric or note for staff")
    void classroom50ShowsNothingWithheld() throws Exception {
        String summary = Files.readString(reports.resolve(Reports.SUMMARY));

        assertShowsNothingWithheld("Classroom 50's result.json", Files.readString(Platform.CLASSROOM50.file(reports)));
        assertShowsNothingWithheld("the Release body, summary.md", summary);
        // The job's log: the grade's line the grader prints, then the Release body autograder.py prints.
        assertShowsNothingWithheld("the job's log", ConsoleLine.of(grade) + "\n" + summary);
        assertThat(summary).as("summary.md").contains("**Score: " + grade.score() + " / " + grade.maxScore() + "**")
                .contains("(a test of quorum: shown hidden)").contains("(a test of reasoning: shown after due date)");
    }

    @Test
    @DisplayName("PrairieLearn: results.json's message, output and tests hold no withheld test, answer key, rubric or note"
            + " for staff, the withheld ones one entry per property")
    void prairieLearnShowsNothingWithheld() throws Exception {
        JsonNode results = JSON.readTree(Platform.PRAIRIELEARN.file(reports).toFile());

        assertShowsNothingWithheld("PrairieLearn's results.json", results.toString());
        assertThat(StreamSupport.stream(results.path("tests").spliterator(), false).map(test -> test.path("name").asText()))
                .as("PrairieLearn's entries").anySatisfy(name -> assertThat(name).startsWith(policy.tags().get("quorum").title() + ": "))
                .anySatisfy(name -> assertThat(name).startsWith(policy.tags().get("reasoning").title() + ": "));
    }

    @Test
    @DisplayName("staff-notes.md holds the note for staff and each explanation with its rubric, which no student's view holds")
    void theStaffFileHoldsWhatIsForStaff() throws Exception {
        String staff = Files.readString(reports.resolve(Reports.STAFF_NOTES));

        assertThat(staff).as("staff-notes.md").startsWith(Reports.STAFF_HEADING).contains(grade.staffNotes())
                .contains(grade.explanations().stream().map(explanation -> explanation.rubric()).toList());
    }

    /** The tests the policy does not show a student before the due date. */
    private Stream<TestResult> withheld() {
        return grade.results().stream().filter(result -> !policy.visibility(result.test()).shownNow());
    }

    private void assertShowsNothingWithheld(String view, String text) {
        assertThat(text).as("%s", view).isNotBlank();
        List<String> secrets = new ArrayList<>(List.of(Reports.STAFF_HEADING, "Rubric"));
        secrets.addAll(grade.staffNotes());
        withheld().forEach(result -> {
            secrets.add(result.test().displayName());
            result.message().lines().map(String::strip).filter(line -> line.length() >= DISTINCT_LINE).forEach(secrets::add);
        });
        for (AnswerKey.Question question : AnswerKey.QUESTIONS) {
            secrets.addAll(List.of(question.rule(), question.model(), question.rubric()));
            // "yes", "no", "accepted" are any text's words; an answer of a phrase or key=value is the key's alone.
            if (question.expected().contains(" ") || question.expected().contains("=")) {
                secrets.add(question.expected());
            }
        }
        AnswerKey.OPEN_QUESTIONS.forEach(question -> secrets.addAll(List.of(question.model(), question.rubric())));
        for (String secret : secrets) {
            assertThat(text).as("%s, which the student reads before the due date, against withheld or staff text", view)
                    .doesNotContain(secret);
        }
    }
}
