package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.files.ResultsFile;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.Grader;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestResult;
import fencing.grader.pipeline.TestSuite;
import fencing.grader.report.Reports;
import fencing.support.Etcd;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partial work is graded: a student file a submission does not hold is graded as the kit's stub, its tests fail saying
 * {@code not submitted: FILE}, and every other test is graded as usual; so is a file that does not compile, its tests
 * saying {@code did not compile: FILE:LINE: ERROR}.
 */
// Among the first classes of the run (junit-platform.properties): beside the lab's tests and the templates, before the
// catalog's pass starts.
@Order(1)
class PartialWorkTests {

    private static final String SINK = "fencing/sink/FencedSink.java";

    /** The tags of the tests that use the fenced sink, the core's and Part 4's. */
    private static final Set<String> SINK_TAGS = Set.of("comparison-in-transaction", "durability", "equal-token-acceptance",
            "stale-rejection", "structure", "extension", "current-owner", "forged-token", "pre-contact");

    @TempDir
    Path dir;

    @Test
    @DisplayName("a submission without the extension's files gets its full core score, its extension tests fail saying"
            + " 'not submitted', and the report lists the files that were missing")
    void withoutTheExtensionFilesTheCoreScoresInFull() throws Exception {
        Path submission = without(dir.resolve("core-only"), StudentFiles.EXTENSION_PATHS);

        Grade grade = GradingFixtures.grade(submission);

        assertThat(grade.status()).as("a submission without the extension's files: %s", grade.reason()).isEqualTo(Grade.Status.GRADED);
        assertThat(coreFailures(grade)).as("core tests failed by the solutions without the extension's files").isEmpty();
        assertThat(grade.coreScore()).as("the core score").isEqualTo(grade.coreMaxScore()).isPositive();
        List<TestResult> failed = grade.results().stream().filter(result -> !result.passed()).toList();
        assertThat(failed).as("extension tests failed").isNotEmpty()
                .allSatisfy(result -> assertThat(result.message()).as("%s's message", result.test().name())
                        .startsWith("not submitted: fencing/"));
        assertThat(grade.failedTags()).as("failed tags").contains("current-owner", "idempotency", "lineage");
        String reports = reports(grade);
        for (String path : StudentFiles.EXTENSION_PATHS) {
            assertThat(reports).as("summary.md and results.json name the missing %s", path).contains(path);
        }
    }

    @Test
    @DisplayName("with count-extensions: false the extension's files are not required: the solutions without them score"
            + " full marks and the report lists nothing as missing")
    void extensionFilesAreNotRequiredWhenTheExtensionDoesNotCount() throws Exception {
        Path policy = dir.resolve("grading-policy.yml");
        String kit = Files.readString(GradingPolicy.kitFile());
        assertThat(kit).as("the kit's policy counts the extension").contains("count-extensions: true");
        Files.writeString(policy, kit.replace("count-extensions: true", "count-extensions: false"));
        Path submission = without(dir.resolve("core-only"), StudentFiles.EXTENSION_PATHS);

        Grade grade;
        try (Grader grader = new Grader(new Grader.Options(TestSuite.HIDDEN, true, Etcd.shared().endpoints()), policy)) {
            grade = grader.grade(submission, "kit-checks/" + UUID.randomUUID());
        }

        assertThat(grade.status()).as("graded: %s", grade.reason()).isEqualTo(Grade.Status.GRADED);
        assertThat(grade.score()).as("the score when the extension does not count").isEqualTo(grade.maxScore()).isPositive();
        assertThat(grade.notes()).as("notes").noneMatch(note -> note.contains("missing"));
        assertThat(grade.results()).as("the extension's tests still run, for nothing").anyMatch(result -> !result.passed());
    }

    @Test
    @DisplayName("a submission without FencedSink.java loses points only on the tests of the sink, each saying it was not submitted")
    void withoutTheSinkOnlyTheSinksTestsFail() throws Exception {
        Path submission = without(dir.resolve("no-sink"), List.of(SINK));

        Grade grade = GradingFixtures.grade(submission);

        assertThat(grade.status()).as("a submission without the sink: %s", grade.reason()).isEqualTo(Grade.Status.GRADED);
        List<TestResult> failed = grade.results().stream().filter(result -> !result.passed()).toList();
        assertThat(failed).as("tests failed without the sink").isNotEmpty().allSatisfy(result -> {
            assertThat(result.message()).as("%s's message", result.test().name()).contains("not submitted: " + SINK);
            assertThat(SINK_TAGS).as("%s's tags: the sink's", result.test().name()).containsAll(result.tags());
        });
        assertThat(grade.failedTags()).as("failed tags").contains("comparison-in-transaction", "durability");
        assertThat(grade.results()).as("tests passed without the sink")
                .anyMatch(result -> result.passed() && result.tags().contains("monotonic-tokens"));
        assertThat(reports(grade)).as("summary.md and results.json name the missing file").contains(SINK);
    }

    @Test
    @DisplayName("a submission whose FencedSink.java does not compile is graded with that file set aside as the kit's stub:"
            + " only the sink's tests fail, each naming the file, line and error, and the report says why it was set aside")
    void aSinkThatDoesNotCompileCostsOnlyTheSinksTests() throws Exception {
        Path submission = without(dir.resolve("broken-sink"), List.of());
        Path sink = submission.resolve(StudentFiles.SOURCE_ROOT).resolve(SINK);
        Files.writeString(sink, Files.readString(sink).replace("control.execute(\"BEGIN IMMEDIATE\");",
                "control.execute(\"BEGIN IMMEDIATE\")"));
        String error = "did not compile: src/main/java/" + SINK + ":45: ';' expected";

        Grade grade = GradingFixtures.grade(submission);

        assertThat(grade.status()).as("a submission whose sink lacks a ';': %s", grade.reason()).isEqualTo(Grade.Status.GRADED);
        assertThat(grade.compiled()).as("whether the rest compiled, the sink as its stub: %s", grade.compilerOutput()).isTrue();
        List<TestResult> failed = grade.results().stream().filter(result -> !result.passed()).toList();
        assertThat(failed).as("tests failed with the sink lacking a ';'").isNotEmpty().allSatisfy(result -> {
            assertThat(result.message()).as("%s's message", result.test().name()).startsWith(error);
            assertThat(SINK_TAGS).as("%s's tags: the sink's", result.test().name()).containsAll(result.tags());
        });
        assertThat(grade.coreScore()).as("the core's score without the sink's tests").isPositive()
                .isLessThan(grade.coreMaxScore());
        assertThat(grade.results()).as("tests passed with the sink set aside")
                .anyMatch(result -> result.passed() && result.tags().contains("monotonic-tokens"));
        assertThat(reports(grade)).as("summary.md and results.json say the sink was set aside, and why")
                .contains("Set aside and graded as the kit's stub").contains(error);
    }

    private static List<TestResult> coreFailures(Grade grade) {
        return grade.results().stream().filter(result -> !result.passed() && !result.tags().contains(TestSuite.EXTENSION_TAG)).toList();
    }

    /** The solutions without {@code left}, with their answers and evidence. */
    private static Path without(Path target, List<String> left) throws Exception {
        Path submission = CatalogSubmissions.assemble(KitLocations.solutions(), target);
        for (String path : left) {
            Files.delete(submission.resolve(StudentFiles.SOURCE_ROOT).resolve(path));
        }
        return submission;
    }

    /** The text of summary.md and of results.json's output, as written for {@code grade}. */
    private String reports(Grade grade) throws Exception {
        Path out = dir.resolve("report-" + UUID.randomUUID());
        Reports.write(grade, out, GradingPolicy.load());
        return Files.readString(out.resolve("summary.md")) + "\n"
                + ResultsFile.read(out.resolve(ResultsFile.FILE)).output();
    }
}
