package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.files.ResultsFile;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.Grader;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestResult;
import fencing.grader.report.GradescopeResults;
import fencing.grader.report.Platform;
import fencing.grader.report.ReportText;
import fencing.grader.report.Reports;
import fencing.grader.sandbox.KitFingerprint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Containment: a submission that loops, deadlocks, exits, overflows, floods its output or its messages, or vandalises
 * files is graded within the limit, with a report that says what happened, never above its honest score, every platform
 * file within its size limits, and the grader unchanged.
 *
 * <p>Each entry is graded once, beside the rest of the catalog ({@link CatalogGrades}); that its verdicts do not move
 * under that overload is {@link CatalogTests}' check against the catalog's record.
 */
// After the first classes (junit-platform.properties): it starts the catalog's pass, which then runs beside the classes
// after it.
@Order(2)
class HostileCatalogTests {

    @TempDir
    Path dir;

    @TestFactory
    @DisplayName("each hostile submission is contained, reported in plain words, and never scores above its honest score")
    Stream<DynamicTest> hostileSubmissionsAreContained() {
        List<Path> entries = CatalogSubmissions.entries("hostile");
        assertThat(entries).as("hostile entries").hasSizeGreaterThanOrEqualTo(16);
        return CatalogSubmissions.selected("hostile").stream().map(entry -> DynamicTest.dynamicTest(entry.getFileName().toString(), () -> {
            String name = entry.getFileName().toString();
            CatalogGrades.Graded graded = CatalogGrades.of(entry);
            Assumptions.assumeTrue(graded.grade().isPresent(), graded.skipped());
            Grade grade = graded.grade().get();
            Grader grader = CatalogGrades.graderWithoutEtcd();
            List<String> tags = CatalogSubmissions.expectedTags(entry);
            List<String> phrases = CatalogSubmissions.expectedReport(entry);
            if (name.equals(CatalogGrades.NEEDS_NETWORK_SANDBOX)) {
                assertThat(graded.baitReached()).as("%s: connections that reached this machine's own address from the"
                        + " submission's tests", name).isZero();
            }

            assertThat(graded.took()).as("%s: grading must end within its time limit", name)
                    .isLessThan(GradingPolicy.load().limits().run().plusSeconds(30));
            // The grader checks its own files after every grade; this checks them from outside, after this one's.
            CatalogGrades.kitBefore().requireUnchanged(KitFingerprint.of(KitClassPath.ofThisJvm()), name);
            assertThat(grade.status()).as("%s: the status of its grade (%s)", name, grade.reason()).isEqualTo(Grade.Status.GRADED);
            assertThat(grade.compiled()).as("%s compiles: %s", name, grade.compilerOutput()).isTrue();
            assertThat(grade.results()).as("%s: one result per test", name).hasSameSizeAs(grader.tests());
            for (String tag : tags) {
                List<TestResult> tagged = grade.results().stream().filter(result -> result.tags().contains(tag)).toList();
                assertThat(tagged).as("%s must lose points on a test tagged %s", name, tag).anyMatch(result -> !result.passed());
                if (!phrases.isEmpty()) {
                    // A method that loops, exits or overflows earns nothing anywhere, and every such test says why.
                    for (TestResult result : tagged) {
                        assertThat(result.passed()).as("%s: %s must not earn points", name, result.test().name()).isFalse();
                        assertThat(result.message()).as("%s: why %s failed", name, result.test().name()).contains(phrases.get(0));
                    }
                }
            }
            if (tags.isEmpty()) {
                assertThat(grade.score()).as("%s is otherwise correct: its honest score is full marks; failures: %s",
                        name, grade.results().stream().filter(result -> !result.passed())
                                .map(result -> result.test().name() + ": " + result.message()).toList())
                        .isEqualTo(grade.maxScore());
            }
            Path out = dir.resolve("report-" + name);
            Reports.write(grade, out, GradingPolicy.load(), EnumSet.allOf(Platform.class), ReportAgreement.CLASSROOM50);
            long flooded = grade.results().stream().filter(result -> result.message().length() > ReportText.TEST_OUTPUT_LIMIT).count();
            assertThat(OutputLimits.assertWithinLimits(out.resolve(GradescopeResults.FILE)))
                    .as("%s: the tests of results.json whose output says it was cut, one per message over the limit", name)
                    .isEqualTo(flooded);
            for (Platform platform : Platform.values()) {
                OutputLimits.assertWithinLimits(platform.file(out));
            }
            String summary = Files.readString(out.resolve(Reports.SUMMARY));
            // Classroom 50's Release body is summary.md: GitHub refuses a longer one, and Classroom 50 then records no submission.
            assertThat(summary.length()).as("%s: the length of summary.md, Classroom 50's Release body, against GitHub's"
                    + " 125,000 characters", name).isLessThan(125_000);
            for (String phrase : phrases) {
                assertThat(summary).as("%s: the report says what happened", name).contains(phrase);
            }
            assertThat(ResultsFile.read(out.resolve(ResultsFile.FILE)).score())
                    .as("%s: the reported score is the grader's own", name).isEqualTo(grade.score());
        }));
    }
}
