package fencing.grader.report;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.files.ResultsFile;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What a student reads of a grade: cut to what the platform takes, and never what is for staff alone. */
class StudentViewsTests {

    /** GitHub refuses a Release whose body is longer than this (HTTP 422), and Classroom 50 then records no submission. */
    private static final int GITHUB_RELEASE_BODY_LIMIT = 125_000;
    private static final Map<String, String> CLASSROOM50 = Map.of("CLASSROOM", "c", "ASSIGNMENT", "a", "SUBMISSION_TAG", "s",
            "COMMIT_URL", "https://example.org/commit", "RELEASE_URL", "https://example.org/release");
    private static final String FLOOD = "java.lang.IllegalStateException: " + "a majority, ".repeat(25_000);
    private static final String STAFF_NOTE = "Predict first (for the instructor, no points): Resource.java was first changed"
            + " (0123456789) before Predictions.java was committed (9876543210).";

    @Test
    @DisplayName("summary.md, Classroom 50's Release body, stays under GitHub's 125,000 characters when every failing test"
            + " throws 300,000, and says where it was cut")
    void theSummaryIsCutUnderGitHubsLimit() throws Exception {
        List<TestResult> results = IntStream.range(0, 40).mapToObj(i -> result("floods" + i, "quorum", false, FLOOD)).toList();
        Grade grade = new Grade("flood", true, "", results, List.of(), "", 1.0);

        String summary = Reports.summary(grade, GradingPolicy.load());

        assertThat(results.stream().mapToInt(result -> result.message().length()).sum())
                .as("the failing messages' length, uncut").isGreaterThan(GITHUB_RELEASE_BODY_LIMIT);
        assertThat(summary.length()).as("summary.md's length, against GitHub's limit for a Release body")
                .isLessThanOrEqualTo(ReportText.OUTPUT_LIMIT).isLessThan(GITHUB_RELEASE_BODY_LIMIT);
        assertThat(summary).as("summary.md").startsWith("# Grade for flood").contains("**Score: 0 / 40**")
                .contains(FLOOD.substring(0, 3_000)).doesNotContain(FLOOD.substring(0, 5_000)).contains(ReportText.CUT);
    }

    @Test
    @DisplayName("a note for staff is in staff-notes.md and results.json's extra_data, and in nothing a student reads:"
            + " summary.md, Classroom 50's and PrairieLearn's files, results.json's outputs")
    void aStaffNoteReachesStaffOnly() throws Exception {
        GradingPolicy policy = GradingPolicy.load();
        Grade grade = new Grade("alice", true, "", List.of(result("passes", "quorum", true, "")), List.of("a note for the student"),
                "", 1.0, Grade.Status.GRADED, "", List.of(), List.of(STAFF_NOTE));
        String gradescope = GradescopeResults.json(grade, policy);
        ResultsFile results = ResultsFile.parse(gradescope);

        assertThat(Reports.staffNotes(grade)).as("staff-notes.md").startsWith(Reports.STAFF_HEADING).contains(STAFF_NOTE);
        assertThat(results.staffNotes()).as("results.json's extra_data, which Gradescope never shows a student")
                .anySatisfy(note -> assertThat(note).contains("Predictions.java was committed"));
        Map<String, String> studentViews = Map.of(
                "summary.md", Reports.summary(grade, policy),
                "Classroom 50's result.json", Classroom50Result.json(grade, policy, CLASSROOM50, Instant.EPOCH),
                "PrairieLearn's results.json", PrairieLearnResults.json(grade, policy),
                "results.json's output and tests", results.output() + results.tests());
        studentViews.forEach((view, text) -> assertThat(text).as(view).contains(view.equals("summary.md") ? "a note for the student" : "")
                .doesNotContain("Predict first").doesNotContain(Reports.STAFF_HEADING));
        assertThat(ReportText.overall(grade)).as("the overall output every platform shows").contains("a note for the student")
                .doesNotContain("Predict first");
    }

    @Test
    @DisplayName("staff-notes.md is written for every grade, saying when there is nothing to read")
    void theStaffFileSaysWhenThereIsNothingToRead() {
        Grade grade = new Grade("bob", true, "", List.of(result("passes", "quorum", true, "")), List.of(), "", 1.0);

        assertThat(Reports.staffNotes(grade)).as("staff-notes.md of a grade with no note for staff and no explanation")
                .startsWith(Reports.STAFF_HEADING).contains("Grade of bob").contains("Nothing to read");
    }

    static TestResult result(String name, String tag, boolean passed, String message) {
        TestCase test = new TestCase("[engine:junit-jupiter]/[class:fencing.basics.QuorumGradedTests]/[method:" + name + "()]",
                "fencing.basics.QuorumGradedTests", name, name, 1, List.of(tag));
        return new TestResult(test, passed, message, 5);
    }
}
