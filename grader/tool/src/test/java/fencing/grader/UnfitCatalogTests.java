package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.cli.GradeCommand;
import fencing.grader.files.GradeStatus;
import fencing.grader.files.GradebookRow;
import fencing.grader.files.ResultsFile;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.Grader;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestSuite;
import fencing.grader.report.Reports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Submissions not fit to grade (links out of the folder, an empty folder, a wrong layout, a huge, binary or
 * Latin-1 file, a pipe, odd names, an extra class): each is refused with a report that says what was found and
 * what was expected, scores 0, leaks nothing it links to, and stops no batch.
 */
class UnfitCatalogTests {

    private static Grader grader;

    @TempDir
    Path dir;

    @BeforeAll
    static void startGrader() {
        // Nothing of an unfit submission runs: etcd is not needed to refuse it.
        grader = new Grader(new Grader.Options(TestSuite.HIDDEN, false, null));
    }

    @AfterAll
    static void closeGrader() {
        grader.close();
    }

    @TestFactory
    @DisplayName("each unfit submission is not graded: score 0, and a report naming the file, what was found and what was expected")
    Stream<DynamicTest> unfitSubmissionsAreRefused() {
        List<Path> entries = CatalogSubmissions.entries("unfit");
        assertThat(entries).as("unfit entries").hasSizeGreaterThanOrEqualTo(12);
        return entries.stream().map(entry -> DynamicTest.dynamicTest(entry.getFileName().toString(), () -> {
            String name = entry.getFileName().toString();
            Path submission = UnfitSubmissions.build(entry, dir.resolve("class").resolve(name));
            List<Path> linked = UnfitSubmissions.linkTargets(entry);
            for (Path target : linked) {
                // The link works: a grader that followed it would have read the kit's file.
                assertThat(Files.isRegularFile(target) || Files.isDirectory(target)).as("%s links to %s", name, target).isTrue();
            }

            Grade grade = grader.grade(submission, "unfit/" + UUID.randomUUID());

            assertThat(grade.status()).as("%s: %s", name, grade.reason()).isEqualTo(Grade.Status.NOT_GRADED);
            assertThat(grade.score()).as("%s's score", name).isZero();
            assertThat(grade.maxScore()).as("%s's maximum: the class's", name).isEqualTo(maxScore());
            Path out = dir.resolve("report").resolve(name);
            Reports.write(grade, out, GradingPolicy.load());
            String summary = Files.readString(out.resolve("summary.md"));
            ResultsFile results = ResultsFile.read(out.resolve(ResultsFile.FILE));
            assertThat(results.score()).as("%s: the score in results.json", name).isZero();
            assertThat(results.output()).as("%s: results.json's output", name).startsWith("not graded: ");
            for (String phrase : phrases(entry)) {
                assertThat(summary).as("%s: the report says what was found and expected", name).contains(phrase);
                assertThat(results.output()).as("%s: results.json says it too", name).contains(phrase);
            }
            // The file whole, as text: a linked line must not appear in any of its fields.
            String reports = summary + Files.readString(out.resolve(ResultsFile.FILE));
            for (Path target : linked) {
                for (String line : linesOf(target)) {
                    assertThat(reports).as("%s: the reports quote nothing of the linked %s", name, target).doesNotContain(line);
                }
            }
        }));
    }

    @Test
    @DisplayName("a batch with every unfit submission in it grades the others, lists the unfit ones in the gradebook and exits 0")
    void unfitSubmissionsDoNotStopABatch() throws Exception {
        Path batch = dir.resolve("batch");
        for (Path entry : CatalogSubmissions.entries("unfit")) {
            UnfitSubmissions.build(entry, batch.resolve(entry.getFileName()));
        }
        CatalogSubmissions.assemble(KitLocations.catalog().resolve("wrong/quorum-tolerates-half"), batch.resolve("zz-quorum-tolerates-half"));
        CatalogSubmissions.assemble(KitLocations.catalog().resolve("correct/quorum-ceil"), batch.resolve("zz-quorum-ceil"));
        Path out = dir.resolve("out");
        ConsoleRun run = ConsoleRun.of(() -> GradeCommand.run("--batch", batch.toString(), "--out", out.toString(), "--no-etcd",
                "--jobs", "2"));

        assertThat(run.exit()).as("exit code; the console said:%n%s", run.text()).isZero();
        Map<String, GradebookRow> rows = gradebook(out.resolve("gradebook.csv"));
        assertThat(rows.keySet()).as("students in the gradebook").hasSize(CatalogSubmissions.entries("unfit").size() + 2);
        for (Path entry : CatalogSubmissions.entries("unfit")) {
            GradebookRow row = rows.get(entry.getFileName().toString());
            assertThat(row).as("the gradebook's row for %s", entry.getFileName()).isNotNull();
            assertThat(row.score()).as("%s's score", entry.getFileName()).isZero();
            assertThat(row.statusLine()).as("%s's status", entry.getFileName()).startsWith("not graded: ");
            assertThat(Files.readString(out.resolve(entry.getFileName().toString()).resolve("summary.md")))
                    .as("%s's own report", entry.getFileName()).contains("not graded: ");
        }
        GradebookRow correct = rows.get("zz-quorum-ceil");
        assertThat(correct.status()).as("the correct submission's status").isEqualTo(GradeStatus.GRADED);
        assertThat(correct.score()).as("the correct submission's score").isEqualTo(correct.max());
        GradebookRow wrong = rows.get("zz-quorum-tolerates-half");
        assertThat(wrong.status()).as("the wrong submission's status").isEqualTo(GradeStatus.GRADED);
        assertThat(wrong.score()).as("the wrong submission's score").isPositive().isLessThan(wrong.max());
        assertThat(wrong.failedTags()).as("the wrong submission's failed tags").contains("quorum");
        assertThat(run.text()).as("the console lists the unfit submissions")
                .contains("Not graded").contains("links-to-solutions: not graded: ");
    }

    private static int maxScore() {
        return grader.tests().stream().mapToInt(TestCase::points).sum();
    }

    private static List<String> phrases(Path entry) throws Exception {
        return Files.readAllLines(entry.resolve("expected-report.txt")).stream().filter(line -> !line.isBlank()).toList();
    }

    /** The distinctive lines of a linked file, or of every source file in a linked folder. */
    private static List<String> linesOf(Path target) throws Exception {
        List<Path> files;
        if (Files.isDirectory(target)) {
            try (Stream<Path> walk = Files.walk(target)) {
                // Sources only: a linked folder may also hold build output, which no report could quote as lines.
                files = walk.filter(Files::isRegularFile).filter(file -> file.toString().endsWith(".java")).toList();
            }
        } else {
            files = List.of(target);
        }
        return files.stream().flatMap(file -> {
            try {
                return Files.readAllLines(file).stream();
            } catch (java.nio.charset.MalformedInputException binary) {
                // A build's class files and jars in a linked folder hold no line a report could leak.
                return Stream.<String>empty();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).map(String::strip).filter(line -> line.length() >= 30 && !line.startsWith("package ") && !line.startsWith("import ")
                && !line.startsWith("*") && !line.startsWith("/**") && !line.startsWith("//")).toList();
    }

    /** Reads gradebook.csv into rows by student; reading refuses a file whose columns are not the gradebook's. */
    private static Map<String, GradebookRow> gradebook(Path csv) throws Exception {
        Map<String, GradebookRow> rows = new TreeMap<>();
        for (GradebookRow row : GradebookRow.read(csv)) {
            rows.put(row.student(), row);
        }
        return rows;
    }
}
