package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestSuite;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The two fixed points of the grader: the solutions score full marks, the untouched stubs score 0. */
class ReferenceGradesTests {

    /** What a stub says when a test reaches it: a method not implemented, or a prediction not answered. */
    static final String NOT_DONE_YET = "(?s).*Not (implemented|answered) yet.*";

    @Test
    @DisplayName("every hidden test is graded: it has points and tags the grading policy lists")
    void everyHiddenTestCarriesPointsAndKnownTags() {
        List<TestCase> tests = GradingFixtures.grader(TestSuite.HIDDEN).tests();
        Set<String> vocabulary = GradingPolicy.load().tags().keySet();

        assertThat(tests).as("the hidden suite").isNotEmpty();
        assertThat(tests).allSatisfy(test -> {
            assertThat(test.points()).as("points of %s", test.name()).isPositive();
            assertThat(test.tags()).as("tags of %s", test.name()).isNotEmpty().isSubsetOf(vocabulary);
        });
    }

    @Test
    @DisplayName("the solutions score full marks on the hidden tests")
    void solutionsScoreFullMarks() {
        Grade grade = GradingFixtures.grade(KitLocations.solutions());

        assertThat(grade.results()).as("hidden tests failed by the solutions").allSatisfy(result ->
                assertThat(result.passed()).as("%s: %s", result.test().name(), result.message()).isTrue());
        assertThat(grade.score()).isEqualTo(grade.maxScore());
    }

    @Test
    @DisplayName("the untouched stubs score 0, every hidden test failing with a not-implemented (or not-answered) message")
    void stubsScoreZeroWithNotImplementedMessages() {
        Grade grade = GradingFixtures.grade(KitLocations.exercises());

        assertThat(grade.compiled()).as("the stubs compile").isTrue();
        assertThat(grade.score()).as("the stubs' score").isZero();
        assertThat(grade.results()).allSatisfy(result ->
                assertThat(result.message()).as("why %s failed on the stubs", result.test().name())
                        .matches(NOT_DONE_YET));
    }

    @Test
    @DisplayName("the public self-check tests pass on the solutions")
    void publicTestsPassOnSolutions() {
        Grade grade = GradingFixtures.grade(TestSuite.PUBLIC, KitLocations.solutions());

        assertThat(grade.results()).as("public tests failed by the solutions").isNotEmpty().allSatisfy(result ->
                assertThat(result.passed()).as("%s: %s", result.test().name(), result.message()).isTrue());
    }

    @Test
    @DisplayName("the public self-check tests fail on the stubs, each with a not-implemented message")
    void publicTestsFailOnStubs() {
        Grade grade = GradingFixtures.grade(TestSuite.PUBLIC, KitLocations.exercises());

        assertThat(grade.results()).isNotEmpty().allSatisfy(result -> {
            assertThat(result.passed()).as("%s passed on the stubs", result.test().name()).isFalse();
            assertThat(result.message()).as("why %s failed on the stubs", result.test().name()).matches(NOT_DONE_YET);
        });
    }
}
