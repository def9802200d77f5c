package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.TestResult;
import fencing.grader.report.ReportText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The grader's strength: every known-wrong submission loses points where it should, every correct alternative scores full marks.
 *
 * <p>The entries are graded once, side by side, as an overloaded batch grades a class ({@link CatalogGrades}), and every
 * verdict is held to the catalog's record ({@link CatalogVerdicts}).
 */
// Near the end of the run (junit-platform.properties): it waits for the catalog's whole pass, which runs in the background
// from the first class that needs it (HostileCatalogTests) while the classes before this one run beside it.
@Order(Order.DEFAULT + 1)
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
            Grade grade = CatalogGrades.gradeOf(entry);

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
    @DisplayName("each known-wrong submission's failing messages read first line first: a first line, the rule and what was"
            + " observed, of at most " + ReportText.FIRST_LINE_LIMIT + " characters")
    Stream<DynamicTest> wrongSubmissionsFailWithAShortFirstLine() {
        return CatalogSubmissions.selected("wrong").stream().map(entry -> DynamicTest.dynamicTest(entry.getFileName().toString(), () -> {
            Grade grade = CatalogGrades.gradeOf(entry);

            assertThat(grade.results()).as("the failing tests of %s", entry.getFileName()).filteredOn(result -> !result.passed())
                    .allSatisfy(result -> assertThat(result.message().lines().findFirst().orElse(""))
                            .as("the first line of why %s failed in a grade of %s", result.test().name(), entry.getFileName())
                            .hasSizeLessThanOrEqualTo(ReportText.FIRST_LINE_LIMIT));
        }));
    }

    @TestFactory
    @DisplayName("each correct alternative scores full marks, and results.json, the gradebook and the Classroom checks agree")
    Stream<DynamicTest> correctAlternativesScoreFullMarks() {
        return CatalogSubmissions.selected("correct").stream().map(entry -> DynamicTest.dynamicTest(entry.getFileName().toString(), () -> {
            assertThat(Files.exists(entry.resolve("expected-tags.txt"))).as("a correct entry expects no failures").isFalse();
            Grade grade = CatalogGrades.gradeOf(entry);

            assertThat(grade.results()).as("tests failed by the correct alternative %s", entry.getFileName())
                    .allSatisfy(result -> assertThat(result.passed()).as("%s: %s", result.test().name(), result.message()).isTrue());
            ReportAgreement.assertAgree(grade, dir);
        }));
    }

    @TestFactory
    @DisplayName("each catalog entry, graded once with four grades at a time per core, gets the verdict on every test that"
            + " the catalog's record holds (./kit catalog --record writes it again)")
    Stream<DynamicTest> verdictsMatchTheRecord() throws Exception {
        CatalogVerdicts recorded = CatalogVerdicts.read(CatalogVerdicts.file());
        if (CatalogVerdicts.recording()) {
            return Stream.of(DynamicTest.dynamicTest("record", () -> record(recorded)));
        }
        Stream<DynamicTest> stale = CatalogSubmissions.allSelected()
                ? Stream.of(DynamicTest.dynamicTest("every recorded entry is in the catalog", () ->
                        assertThat(CatalogGrades.entries().stream().map(CatalogVerdicts::key).toList())
                                .as("the catalog's entries, against those %s records", CatalogVerdicts.file().getFileName())
                                .containsAll(recorded.failing().keySet())))
                : Stream.empty();
        return Stream.concat(stale, CatalogGrades.entries().stream().map(entry -> DynamicTest.dynamicTest(CatalogVerdicts.key(entry), () -> {
            CatalogGrades.Graded graded = CatalogGrades.of(entry);
            Assumptions.assumeTrue(graded.grade().isPresent(), graded.skipped());
            assertThat(recorded.differences(entry, graded.grade().get()))
                    .as("%s graded with %d grades at a time against its recorded verdicts in %s: every test's verdict must be"
                            + " the recorded one (if the change is meant, ./kit catalog --record writes the record again)",
                            CatalogVerdicts.key(entry), CatalogGrades.overloadJobs(), CatalogVerdicts.file().getFileName())
                    .isEmpty();
        })));
    }

    /** Writes the record again from this run's grades of the selected entries, keeping the others', and prints what changed. */
    private static void record(CatalogVerdicts before) throws Exception {
        // Only a run over the whole catalog may drop an entry from the record.
        CatalogVerdicts after = CatalogSubmissions.allSelected() ? new CatalogVerdicts(java.util.Map.of()) : before;
        for (Path entry : CatalogGrades.entries()) {
            CatalogGrades.Graded graded = CatalogGrades.of(entry);
            assertThat(graded.grade()).as("%s must be graded on this machine to be recorded: %s", CatalogVerdicts.key(entry),
                    graded.skipped()).isPresent();
            Grade grade = graded.grade().get();
            assertThat(grade.status()).as("%s must be graded to be recorded: %s", CatalogVerdicts.key(entry), grade.reason())
                    .isEqualTo(Grade.Status.GRADED);
            after = after.with(entry, grade);
        }
        after.write(CatalogVerdicts.file());
        List<String> changes = CatalogVerdicts.changes(before, after);
        System.out.println("catalog verdicts: " + CatalogVerdicts.file() + " written for " + CatalogGrades.entries().size()
                + " entries; " + (changes.isEmpty() ? "nothing changed" : changes.size() + " change(s):"));
        changes.forEach(change -> System.out.println("  " + change));
    }
}
