package fencing.grader.classpage;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.browser.Browser;
import fencing.grader.ConsoleRun;
import fencing.grader.KitLocations;
import fencing.grader.cli.SimilarityCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./kit similarity}: JPlag over a folder of submissions, the handout's stubs as base code. */
class SimilarityTests {

    /** Correct versions of one file in the catalog that take another approach than the solutions' file. */
    private static final List<String> REWRITES = List.of("correct/etcd-txn-header-revision", "correct/sink-one-statement-update");

    @RegisterExtension
    static final Browser BROWSER = new Browser("class-page");

    @TempDir
    static Path dir;

    private static Path submissions;

    @BeforeAll
    static void layOutTheSubmissions() throws IOException {
        submissions = dir.resolve("class");
        Submissions.solutions(submissions.resolve("solutions"));
        Submissions.renamedCopy(submissions.resolve("renamed-copy"));
        Submissions.stubs(submissions.resolve("stubs"));
        for (String entry : REWRITES) {
            String file = Submissions.changedFile(entry);
            String name = entry.substring(entry.indexOf('/') + 1);
            Submissions.stubsWith(KitLocations.catalog().resolve(entry), file, submissions.resolve(name));
            Submissions.stubsWith(KitLocations.solutions(), file, submissions.resolve("solution-of-" + name));
        }
    }

    @Test
    @DisplayName("the renamed, reordered copy of the solutions is listed, on pages axe-core finds no serious violation on; other approaches to a file and the stubs are not")
    void aDisguisedCopyIsListedAndOtherWorkIsNot() throws IOException {
        Path out = dir.resolve("default");
        ConsoleRun run = similarity(submissions.toString(), "--out", out.toString());

        assertThat(run.exit()).as("exit code of ./kit similarity over the class; it said: %s", run.text()).isZero();
        assertThat(pairs(out)).as("the pairs similarity.csv lists at the default threshold of %s %%", ClassPage.DEFAULT_THRESHOLD)
                .containsExactly("renamed-copy + solutions");
        Map<String, String> copy = lines(out).get(0);
        assertThat(Double.parseDouble(copy.get("average_percent"))).as("the renamed copy's average similarity with the solutions")
                .isGreaterThanOrEqualTo(ClassPage.DEFAULT_THRESHOLD);
        Path view = out.resolve(copy.get("view"));
        assertThat(view).as("the side-by-side page similarity.csv links the pair to").isRegularFile();
        assertThat(Files.readString(view)).as("the side-by-side page of the renamed copy and the solutions")
                .contains("renamed-copy and solutions").contains("FencedSink.java").contains("class=\"line m0\"")
                .doesNotContainPattern("(src|href)=\"[a-z]+:");
        assertThat(Files.readString(out.resolve("similarity.html"))).as("similarity.html")
                .contains("Similarity never changes a score").contains(copy.get("view"));
        BROWSER.open(view);
        assertThat(BROWSER.seriousViolations()).as("axe-core's serious and critical violations on the side-by-side page").isEmpty();
        BROWSER.open(out.resolve("similarity.html"));
        assertThat(BROWSER.seriousViolations()).as("axe-core's serious and critical violations on similarity.html").isEmpty();
    }

    @Test
    @DisplayName("at threshold 0 every pair is listed: the stubs match nothing, the other approaches stay under the default")
    void everyPairShowsWhereTheThresholdSits() throws IOException {
        Path out = dir.resolve("all");
        ConsoleRun run = similarity(submissions.toString(), "--out", out.toString(), "--threshold", "0");

        assertThat(run.exit()).as("exit code at threshold 0; it said: %s", run.text()).isZero();
        List<Map<String, String>> all = lines(out);
        int students = 3 + 2 * REWRITES.size();
        assertThat(all).as("pairs listed at threshold 0 among %d submissions", students).hasSize(students * (students - 1) / 2);
        for (Map<String, String> pair : all) {
            String names = pair.get("student_a") + " + " + pair.get("student_b");
            if (names.contains("stubs")) {
                assertThat(pair.get("maximum_percent")).as("maximum similarity of %s: the stubs are the base code", names).isEqualTo("0.0");
            }
        }
        for (String entry : REWRITES) {
            String name = entry.substring(entry.indexOf('/') + 1);
            Map<String, String> other = all.stream().filter(pair -> pair.get("student_a").equals(name)
                    && pair.get("student_b").equals("solution-of-" + name)).findFirst().orElseThrow();
            assertThat(Double.parseDouble(other.get("average_percent")))
                    .as("average similarity of %s's own version of %s and the solutions'", name, Submissions.changedFile(entry))
                    .isPositive().isLessThan(ClassPage.DEFAULT_THRESHOLD);
        }
    }

    @Test
    @DisplayName("a lower threshold lists the other approach it left out: the threshold decides, not JPlag missing the pair")
    void aLowerThresholdListsMore() throws IOException {
        Path out = dir.resolve("lower");
        ConsoleRun run = similarity(submissions.toString(), "--out", out.toString(), "--threshold", "50");

        assertThat(run.exit()).as("exit code at threshold 50; it said: %s", run.text()).isZero();
        assertThat(pairs(out)).as("the pairs listed at threshold 50").contains("renamed-copy + solutions")
                .contains("etcd-txn-header-revision + solution-of-etcd-txn-header-revision")
                .noneMatch(pair -> pair.contains("stubs"));
    }

    @Test
    @DisplayName("two runs over the same folder write byte-identical similarity.csv and similarity-answers.csv")
    void theSameFolderGivesTheSameFigures() throws IOException {
        Path first = dir.resolve("run-1");
        Path second = dir.resolve("run-2");
        for (Path out : List.of(first, second)) {
            ConsoleRun run = similarity(submissions.toString(), "--out", out.toString(), "--threshold", "0");
            assertThat(run.exit()).as("exit code of ./kit similarity into %s; it said: %s", out, run.text()).isZero();
        }

        for (String file : List.of("similarity.csv", "similarity-answers.csv")) {
            assertThat(Files.readAllBytes(second.resolve(file))).as("%s of the second run over the same folder, byte for byte", file)
                    .isEqualTo(Files.readAllBytes(first.resolve(file)));
        }
    }

    @Test
    @DisplayName("copied ANSWERS.md prose is listed beside the code pairs, even where the code is not similar")
    void copiedAnswersAreListed() throws IOException {
        Path prose = dir.resolve("prose");
        Submissions.solutions(prose.resolve("solutions"));
        Submissions.stubs(prose.resolve("answers-copier"));
        Files.copy(KitLocations.solutions().resolve("ANSWERS.md"), prose.resolve("answers-copier").resolve("ANSWERS.md"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Submissions.stubs(prose.resolve("stubs"));
        Path out = dir.resolve("prose-out");
        ConsoleRun run = similarity(prose.toString(), "--out", out.toString());

        assertThat(run.exit()).as("exit code over a class where one copied the solutions' ANSWERS.md; it said: %s", run.text()).isZero();
        assertThat(Csv.pairs(out, "similarity-answers.csv")).as("the pairs similarity-answers.csv lists: answers-copier wrote no code")
                .containsExactly("answers-copier + solutions");
        assertThat(pairs(out)).as("the code pairs similarity.csv lists: answers-copier's code is the stubs").isEmpty();
        assertThat(Files.readString(out.resolve("similarity.html"))).as("similarity.html's table of similar explanations")
                .contains("id=\"similar-answers\"").contains("<tr><td>answers-copier</td><td>solutions</td><td class=\"num\" data-sort=\"100.0\">");
    }

    @Test
    @DisplayName("the histogram draws in red exactly the pairs similarity.csv lists, bin by bin, at every threshold")
    void theHistogramMarksTheListedPairs() throws IOException {
        for (String threshold : List.of("0", "50", "65", "93.5")) {
            Path out = dir.resolve("histogram-" + threshold);
            ConsoleRun run = similarity(submissions.toString(), "--out", out.toString(), "--threshold", threshold);
            assertThat(run.exit()).as("exit code at threshold %s; it said: %s", threshold, run.text()).isZero();
            int[] listed = new int[10];
            lines(out).forEach(line -> listed[Math.min(9, (int) (Double.parseDouble(line.get("average_percent")) / 10))]++);
            int[] marked = new int[10];
            java.util.regex.Matcher bins = java.util.regex.Pattern.compile("data-bin=\"(\\d+)–\\d+\" data-count=\"\\d+\" data-marked=\"(\\d+)\"")
                    .matcher(Files.readString(out.resolve("similarity.html")));
            while (bins.find()) {
                marked[Integer.parseInt(bins.group(1)) / 10] = Integer.parseInt(bins.group(2));
            }
            assertThat(marked).as("pairs drawn in red per tenth at threshold %s, against similarity.csv's pairs per tenth", threshold)
                    .containsExactly(listed);
        }
    }

    @Test
    @DisplayName("a submission missing a student file is compared on the files it has")
    void aMissingFileIsComparedOnTheRest() throws IOException {
        Path partial = dir.resolve("partial");
        Submissions.solutions(partial.resolve("solutions"));
        Submissions.renamedCopy(partial.resolve("renamed-copy"));
        Files.delete(partial.resolve("renamed-copy").resolve(fencing.grader.StudentFiles.SOURCE_ROOT).resolve("fencing/sink/FencedSink.java"));
        Path out = dir.resolve("partial-out");
        ConsoleRun run = similarity(partial.toString(), "--out", out.toString());

        assertThat(run.exit()).as("exit code with renamed-copy missing FencedSink.java; it said: %s", run.text()).isZero();
        assertThat(run.text()).as("what the command said with renamed-copy missing FencedSink.java").doesNotContain("Not compared");
        assertThat(pairs(out)).as("the pairs listed with renamed-copy missing FencedSink.java").containsExactly("renamed-copy + solutions");
    }

    @Test
    @DisplayName("a submission that is a link is read through the intake: not compared, with the reason, and the others are")
    void aLinkIsNotFollowed() throws IOException {
        Path linked = dir.resolve("linked");
        Submissions.solutions(linked.resolve("solutions"));
        Submissions.renamedCopy(linked.resolve("renamed-copy"));
        Files.createSymbolicLink(linked.resolve("mallory"), submissions.resolve("solutions"));
        Path out = dir.resolve("linked-out");
        ConsoleRun run = similarity(linked.toString(), "--out", out.toString());

        assertThat(run.exit()).as("exit code with a linked submission; it said: %s", run.text()).isZero();
        assertThat(run.text()).as("what the command said of the linked submission").contains("Not compared: mallory")
                .contains("symbolic link");
        assertThat(pairs(out)).as("the pairs listed with mallory a link to the solutions").containsExactly("renamed-copy + solutions");
    }

    @Test
    @DisplayName("bad input is refused with exit 2 and writes nothing")
    void badInputIsRefused() throws IOException {
        Path lonely = dir.resolve("lonely");
        Submissions.solutions(lonely.resolve("solutions"));
        Path out = dir.resolve("refused");
        List<List<String>> lines = List.of(List.of(dir.resolve("no-such-folder").toString(), "--out", out.toString()),
                List.of(submissions.toString(), "--out", out.toString(), "--threshold", "101"),
                List.of(submissions.toString(), "--out", out.toString(), "--threshold", "-1"),
                List.of(submissions.toString(), "--out", submissions.resolve("report").toString()),
                List.of(lonely.toString(), "--out", out.toString()),
                List.of(submissions.toString()));
        for (List<String> line : lines) {
            ConsoleRun run = similarity(line.toArray(String[]::new));
            assertThat(run.exit()).as("exit code of ./kit similarity %s; it said: %s", line, run.text()).isEqualTo(2);
            assertThat(run.text()).as("what ./kit similarity %s said", line).isNotBlank();
        }
        assertThat(out).as("the --out of every refused run").doesNotExist();
        assertThat(submissions.resolve("report")).as("an --out inside the folder of submissions").doesNotExist();
    }

    private static ConsoleRun similarity(String... args) {
        return ConsoleRun.of(() -> SimilarityCommand.run(args));
    }

    private static List<Map<String, String>> lines(Path out) throws IOException {
        return Csv.rows(out.resolve("similarity.csv"));
    }

    private static List<String> pairs(Path out) throws IOException {
        return Csv.pairs(out);
    }
}
