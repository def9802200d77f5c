package fencing.grader.classpage;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.browser.Browser;
import fencing.grader.ConsoleRun;
import fencing.grader.cli.GradeCommand;
import fencing.grader.cli.GradebookCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/** A class graded in two shards has one page and one similarity report, over all its students, after the merge and a regrade. */
class MergedClassPageTests {

    @RegisterExtension
    static final Browser BROWSER = new Browser("class-page");

    @TempDir
    Path dir;

    @Test
    @DisplayName("the copy and the solutions, graded in different shards, are compared after the merge, and again after a regrade")
    void theMergeComparesAcrossShards() throws IOException {
        String copy = inOtherShard("solutions");
        Path batch = dir.resolve("class");
        Submissions.solutions(batch.resolve("solutions"));
        Submissions.renamedCopy(batch.resolve(copy));
        Submissions.stubs(batch.resolve("stubs"));
        List<String> shards = new ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            Path out = dir.resolve("shard-" + i);
            ConsoleRun run = grade(batch, out, "--shard", i + "/2");
            assertThat(run.exit()).as("exit code of shard %d/2; it said: %s", i, run.text()).isZero();
            assertThat(run.text()).as("what shard %d/2 said of the class page", i).contains("written by ./kit gradebook merge");
            assertThat(out.resolve("gradebook.html")).as("a shard's class page").doesNotExist();
            assertThat(out.resolve("similarity.csv")).as("a shard's similarity report").doesNotExist();
            shards.add(out.toString());
        }

        Path merged = dir.resolve("merged");
        ConsoleRun merge = ConsoleRun.of(() -> GradebookCommand.run("merge", shards.get(0), shards.get(1), "--out", merged.toString()));
        assertThat(merge.exit()).as("exit code of the merge; it said: %s", merge.text()).isZero();
        assertThat(pairs(merged)).as("the pairs the merged class lists as similar").containsExactly(copy + " + solutions");
        WebDriver page = BROWSER.open(merged.resolve("gradebook.html"));
        assertThat(page.findElement(By.cssSelector("[data-figure='graded']")).getText()).as("graded students on the merged page").isEqualTo("3");
        assertThat(page.findElements(By.cssSelector("#student-table tbody tr"))).as("rows of the merged page's student table").hasSize(3);
        assertThat(page.findElement(By.id("similar-pairs")).getText()).as("the merged page's similar pairs").contains(copy).contains("solutions");

        Path again = dir.resolve("again");
        ConsoleRun regrade = grade(batch, again, "--since", merged.toString());
        assertThat(regrade.exit()).as("exit code of the regrade; it said: %s", regrade.text()).isZero();
        assertThat(regrade.text()).as("what the regrade said").contains("Reused 3, graded again 0");
        assertThat(pairs(again)).as("the pairs the regraded class lists: every student reused, every file kept")
                .containsExactly(copy + " + solutions");
        assertThat(Files.readString(again.resolve("regrade.md"))).as("regrade.md").contains("[gradebook.html](gradebook.html)");
        page = BROWSER.open(again.resolve("gradebook.html"));
        assertThat(page.findElements(By.xpath("//table[@id='student-table']//td[contains(., '(reused)')]")))
                .as("students marked as reused on the regraded page").hasSize(3);
    }

    @Test
    @DisplayName("a similarity threshold that is not a percentage is refused with exit 2 before anything is graded or written")
    void aWrongThresholdIsRefused() throws IOException {
        Path batch = dir.resolve("class");
        Submissions.solutions(batch.resolve("solutions"));
        Path out = dir.resolve("out");
        ConsoleRun grade = grade(batch, out, "--similarity-threshold", "150");
        ConsoleRun merge = ConsoleRun.of(() -> GradebookCommand.run("merge", batch.toString(), "--out", out.toString(),
                "--similarity-threshold", "-3"));

        assertThat(grade.exit()).as("exit code of a batch with --similarity-threshold 150; it said: %s", grade.text()).isEqualTo(2);
        assertThat(grade.text()).as("why the batch was refused").contains("--similarity-threshold");
        assertThat(merge.exit()).as("exit code of a merge with --similarity-threshold -3; it said: %s", merge.text()).isEqualTo(2);
        assertThat(out).as("the --out of both refused runs").doesNotExist();
    }

    /** A name for the copy that the shards put in the other of two shards than {@code other}. */
    private static String inOtherShard(String other) {
        for (int i = 0; i < 100; i++) {
            String name = i == 0 ? "renamed-copy" : "renamed-copy-" + i;
            if (shard(name) != shard(other)) {
                return name;
            }
        }
        throw new IllegalStateException("no name of 100 falls in the other shard from " + other);
    }

    /** The shard of two that a batch grades {@code name} in: CRC-32 of the name, as {@code --shard} cuts a class. */
    private static long shard(String name) {
        CRC32 hash = new CRC32();
        hash.update(name.getBytes(StandardCharsets.UTF_8));
        return hash.getValue() % 2;
    }

    private static ConsoleRun grade(Path batch, Path out, String... more) {
        List<String> args = new ArrayList<>(List.of("--batch", batch.toString(), "--out", out.toString(), "--no-etcd", "--jobs", "1"));
        args.addAll(List.of(more));
        return ConsoleRun.of(() -> GradeCommand.run(args.toArray(String[]::new)));
    }

    private static List<String> pairs(Path out) throws IOException {
        return Csv.pairs(out);
    }
}
