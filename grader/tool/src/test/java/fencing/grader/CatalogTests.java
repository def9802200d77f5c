package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.TestResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The grader's strength: every known-wrong submission loses points where it should, every correct alternative scores full marks.
 *
 * <p>The entries are graded side by side, as a batch grades a class ({@link CatalogGrades}).
 */
class CatalogTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("the catalog holds at least 25 known-wrong submissions and 3 correct alternatives")
    void catalogIsLargeEnough() {
        assertThat(CatalogSubmissions.entries("wrong")).as("known-wrong entries").hasSizeGreaterThanOrEqualTo(25);
        assertThat(CatalogSubmissions.entries("correct")).as("correct alternatives").hasSizeGreaterThanOrEqualTo(3);
    }

    @TestFactory
    @DisplayName("each known-wrong submission loses points, under the grading policy, on a test of every tag it must fail,"
            + " its feedback names the rule it breaks, and results.json, the gradebook and the Classroom checks agree on its score")
    Stream<DynamicTest> wrongSubmissionsAreCaught() {
        return CatalogSubmissions.selected("wrong").stream().map(entry -> DynamicTest.dynamicTest(entry.getFileName().toString(), () -> {
            List<String> expected = CatalogSubmissions.expectedTags(entry);
            assertThat(expected).as("expected-tags.txt of %s", entry.getFileName()).isNotEmpty();
            List<String> rules = CatalogSubmissions.expectedRules(entry);
            assertThat(rules).as("expected-rule.txt of %s: a phrase of the rule its feedback must name", entry.getFileName())
                    .isNotEmpty();
            Grade grade = CatalogGrades.of(entry);

            assertThat(grade.compiled()).as("%s compiles: %s", entry.getFileName(), grade.compilerOutput()).isTrue();
            for (String tag : expected) {
                assertThat(grade.results())
                        .as("%s must lose points on a test tagged %s; failed: %s", entry.getFileName(), tag, grade.failedTags())
                        .anyMatch(result -> !result.passed() && result.tags().contains(tag) && result.test().points() > 0);
            }
            String failures = grade.results().stream().filter(result -> !result.passed()).map(TestResult::message)
                    .collect(java.util.stream.Collectors.joining("\n")).toLowerCase(java.util.Locale.ROOT);
            for (String phrase : rules) {
                assertThat(failures)
                        .as("%s: its failing messages must name the rule it breaks, in the lesson's words (%s)",
                                entry.getFileName(), "expected-rule.txt")
                        .contains(phrase.toLowerCase(java.util.Locale.ROOT));
            }
            ReportAgreement.assertAgree(grade, dir);
        }));
    }

    @TestFactory
    @DisplayName("each correct alternative scores full marks, and results.json, the gradebook and the Classroom checks agree")
    Stream<DynamicTest> correctAlternativesScoreFullMarks() {
        return CatalogSubmissions.selected("correct").stream().map(entry -> DynamicTest.dynamicTest(entry.getFileName().toString(), () -> {
            assertThat(Files.exists(entry.resolve("expected-tags.txt"))).as("a correct entry expects no failures").isFalse();
            Grade grade = CatalogGrades.of(entry);

            assertThat(grade.results()).as("tests failed by the correct alternative %s", entry.getFileName())
                    .allSatisfy(result -> assertThat(result.passed()).as("%s: %s", result.test().name(), result.message()).isTrue());
            ReportAgreement.assertAgree(grade, dir);
        }));
    }

    @TestFactory
    @DisplayName("each known-wrong and correct entry gets the same verdict on every test when graded again beside a CPU"
            + " hog, with four times as many grades at once as cores")
    Stream<DynamicTest> verdictsDoNotMoveUnderOverload() {
        return Stream.of("wrong", "correct").flatMap(kind -> CatalogSubmissions.selected(kind).stream())
                .map(entry -> DynamicTest.dynamicTest(entry.getParent().getFileName() + "/" + entry.getFileName(), () -> {
                    Grade quiet = CatalogGrades.of(entry);
                    Grade busy = CatalogGrades.overloaded(entry);
                    assertThat(Verdicts.differences(entry.getFileName().toString(), quiet, busy))
                            .as("%s graded on a quiet machine and again under overload: every test's verdict must be the same",
                                    entry.getFileName())
                            .isEmpty();
                }));
    }
}
