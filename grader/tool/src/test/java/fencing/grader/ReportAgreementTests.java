package fencing.grader;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agreement check the catalog runs: it passes on a consistent grade and catches a score the Classroom checks miss. */
class ReportAgreementTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("a point earned on a property the Classroom checks score is counted the same everywhere")
    void acceptsAConsistentGrade() {
        Grade grade = grade("monotonic-tokens");

        assertThatCode(() -> ReportAgreement.assertAgree(grade, dir)).as("agreement on one point of monotonic-tokens")
                .doesNotThrowAnyException();
    }

    @Test
    @DisplayName("a point earned on a property no Classroom check scores is caught as a disagreement")
    void catchesAPointTheClassroomChecksMiss() {
        Grade grade = grade("a-property-no-check-scores");

        assertThatThrownBy(() -> ReportAgreement.assertAgree(grade, dir)).as("a point the Classroom checks cannot see")
                .isInstanceOf(AssertionError.class).hasMessageContaining("GitHub Classroom checks");
    }

    private static Grade grade(String tag) {
        TestCase test = new TestCase("[engine:junit-jupiter]/[method:x()]", "fencing.x.XTests", "x", "x", 1, List.of(tag));
        return new Grade("student", true, "", List.of(new TestResult(test, true, "", 5)), List.of(), "", 1.0);
    }
}
