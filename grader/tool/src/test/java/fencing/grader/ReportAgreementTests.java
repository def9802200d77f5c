package fencing.grader;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestResult;
import fencing.grader.report.Platform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agreement check the catalog runs: it passes on a grade's own reports and catches one report that says otherwise. */
class ReportAgreementTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("a grade's reports, written by the grader, agree on the score everywhere")
    void acceptsAConsistentGrade() {
        assertThatCode(() -> ReportAgreement.assertAgree(grade(), dir)).as("agreement of one grade's reports")
                .doesNotThrowAnyException();
    }

    @Test
    @DisplayName("a Classroom 50 result whose score differs from the grade's is caught, naming the report")
    void catchesAReportThatSaysOtherwise() throws Exception {
        Grade grade = grade();
        ReportAgreement.assertAgree(grade, dir);
        Path reports = dir.resolve("reports-student");
        Path result = Platform.CLASSROOM50.file(reports);
        Files.writeString(result, Files.readString(result).replace("\"score\" : 3,", "\"score\" : 2,"));

        assertThatThrownBy(() -> ReportAgreement.assertFilesAgree(grade, reports)).as("a result.json one point short")
                .isInstanceOf(AssertionError.class).hasMessageContaining("Classroom 50's score");
    }

    private static Grade grade() {
        List<TestResult> results = List.of(
                new TestResult(test("a", 2, "monotonic-tokens"), true, "", 5),
                new TestResult(test("b", 1, "stale-rejection"), true, "", 5),
                new TestResult(test("c", 4, "predictions"), false, "a prediction that does not match", 5));
        return new Grade("student", true, "", results, List.of(), "", 1.0);
    }

    private static TestCase test(String name, int points, String tag) {
        return new TestCase("[engine:junit-jupiter]/[method:" + name + "()]", "fencing.x.XTests", name, name, points, List.of(tag));
    }
}
