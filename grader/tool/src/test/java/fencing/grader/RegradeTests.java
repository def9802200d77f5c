package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.files.BatchRecord;
import fencing.grader.files.GradebookRow;
import fencing.grader.batch.Gradebook;
import fencing.grader.batch.RegradeReport;
import fencing.grader.cli.GradeCommand;
import fencing.grader.cli.GradebookCommand;
import fencing.grader.pipeline.GradingPolicy;
import fencing.support.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A regrade ({@code --since OLD}) reuses exactly the results whose student files and grader are unchanged, and its
 * {@code regrade.md}/{@code regrade.csv} name exactly the students whose score or verdicts changed.
 */
class RegradeTests {

    /** ada hands in the solutions, bo the stubs, chen a known-wrong quorum. */
    private static final List<String> STUDENTS = List.of("ada", "bo", "chen");
    private static final String QUORUM = StudentFiles.SOURCE_ROOT + "/fencing/basics/Quorum.java";

    /** Shared by the tests: the class and its first batch are graded once. */
    @TempDir
    static Path dir;

    private static Path batch;
    private static Path old;

    @BeforeAll
    static void gradeTheClassOnce() throws Exception {
        batch = dir.resolve("batch");
        FileTrees.copy(KitLocations.solutions().resolve("src"), batch.resolve("ada/src"));
        Files.copy(KitLocations.solutions().resolve("ANSWERS.md"), batch.resolve("ada/ANSWERS.md"));
        FileTrees.copy(KitLocations.exercises().resolve("src/main"), batch.resolve("bo/src/main"));
        CatalogSubmissions.assemble(KitLocations.catalog().resolve("wrong/quorum-tolerates-half"), batch.resolve("chen"));
        old = dir.resolve("old");
        ConsoleRun first = grade(batch, old);
        assertThat(first.exit()).as("exit code of the first batch; it said: %s", first.text()).isZero();
        assertThat(BatchRecord.read(old).fingerprints()).as("the first batch's fingerprints: one per graded student")
                .containsOnlyKeys(STUDENTS);
    }

    @Test
    @DisplayName("a regrade with nothing changed reuses every submission's reports, grades none again, and lists no change")
    void regradeWithNothingChangedReusesEverySubmission() throws Exception {
        Path base = dir.resolve("old-marked");
        FileTrees.copy(old, base);
        for (String student : STUDENTS) {
            // A line no grading run writes: found in the new reports only if they were taken over, not written again.
            Files.writeString(base.resolve(student).resolve("summary.md"), "\n<!-- earlier report of " + student + " -->\n",
                    StandardOpenOption.APPEND);
        }
        Path out = dir.resolve("new-same");

        ConsoleRun regrade = grade(batch, out, "--since", base.toString());

        assertThat(regrade.exit()).as("exit code of the regrade; it said: %s", regrade.text()).isZero();
        for (String student : STUDENTS) {
            assertThat(Files.readString(out.resolve(student).resolve("summary.md"))).as("%s's summary.md after the regrade", student)
                    .contains("<!-- earlier report of " + student + " -->");
            assertThat(regrade.text()).as("what the regrade printed for %s", student)
                    .containsPattern("(?m)^" + student + " +reused: same student files and grader")
                    .doesNotContainPattern("(?m)^" + student + " +\\d+ / +\\d+ +in ");
        }
        BatchRecord record = BatchRecord.read(out);
        assertThat(record.reused()).as("batch.json's reused students").containsExactlyElementsOf(STUDENTS);
        assertThat(record.fingerprints()).as("batch.json's fingerprints, carried over").isEqualTo(BatchRecord.read(old).fingerprints());
        assertThat(Files.readString(out.resolve("gradebook.md"))).as("the gradebook's mark of reused students")
                .contains(Gradebook.REUSED_LINE + "ada, bo, chen");
        // Line for line: reused results must give the very file of the first batch, not only the same values.
        assertThat(Files.readAllLines(out.resolve("gradebook.csv"))).as("the regrade's gradebook.csv against the first one's")
                .containsExactlyElementsOf(Files.readAllLines(old.resolve("gradebook.csv")));
        Map<String, List<String>> rows = regradeRows(out);
        assertThat(rows).as("regrade.csv's students").containsOnlyKeys(STUDENTS);
        rows.forEach((student, row) -> assertThat(row).as("regrade.csv's row of %s: outcome, delta, changed", student)
                .satisfies(cells -> assertThat(List.of(cells.get(1), cells.get(4), cells.get(7))).isEqualTo(List.of("reused", "0", "no"))));
        assertThat(Files.readString(out.resolve("regrade.md"))).as("regrade.md")
                .contains("3 of 3 submission(s) reused").contains("**Changed: 0 of 3 student(s)**.")
                .containsPattern("(?m)^\\| ada \\| reused \\|");
    }

    @Test
    @DisplayName("a changed student file regrades only that student, and regrade.md gives its delta and the tests that changed verdict")
    void changedStudentFileRegradesOnlyThatStudent() throws Exception {
        Path fixed = dir.resolve("batch-fixed");
        FileTrees.copy(batch, fixed);
        Files.copy(KitLocations.solutions().resolve(QUORUM), fixed.resolve("chen").resolve(QUORUM),
                StandardCopyOption.REPLACE_EXISTING);
        Path out = dir.resolve("new-fixed");

        ConsoleRun regrade = grade(fixed, out, "--since", old.toString());

        assertThat(regrade.exit()).as("exit code of the regrade; it said: %s", regrade.text()).isZero();
        assertThat(BatchRecord.read(out).reused()).as("the students reused: all but chen").containsExactly("ada", "bo");
        assertThat(regrade.text()).as("what the regrade printed for chen: a grade, not a reuse")
                .containsPattern("(?m)^chen +\\d+ / +\\d+ +in ").doesNotContainPattern("(?m)^chen +reused");
        assertThat(BatchRecord.read(out).fingerprints().get("chen")).as("chen's new fingerprint")
                .isNotEqualTo(BatchRecord.read(old).fingerprints().get("chen"));
        Map<String, Integer> before = scores(old);
        Map<String, Integer> after = scores(out);
        assertThat(after.get("chen")).as("chen's score with the solutions' Quorum.java, against before").isGreaterThan(before.get("chen"));
        List<String> chen = regradeRows(out).get("chen");
        assertThat(chen.subList(1, 8)).as("regrade.csv's row of chen: outcome, old, new, delta, maxima, changed")
                .containsExactly("regraded", before.get("chen").toString(), after.get("chen").toString(),
                        "+" + (after.get("chen") - before.get("chen")), chen.get(6), chen.get(6), "yes");
        assertThat(chen.get(8)).as("chen's tests that changed verdict").contains("failed → passed").doesNotContain("passed → failed");
        assertThat(regradeRows(out).get("ada").subList(1, 8)).as("regrade.csv's row of ada")
                .containsExactly("reused", before.get("ada").toString(), before.get("ada").toString(), "0", chen.get(6), chen.get(6), "no");
        assertThat(Files.readString(out.resolve("regrade.md"))).as("regrade.md")
                .contains("2 of 3 submission(s) reused").contains("**Changed: 1 of 3 student(s)**: chen.")
                .containsPattern("(?m)^\\| chen \\| regraded \\| " + before.get("chen") + " / \\d+ \\| " + after.get("chen")
                        + " / \\d+ \\| \\+\\d+ \\| yes \\| .*failed → passed");
    }

    @Test
    @DisplayName("a changed grading policy regrades everyone and lists as changed exactly the students whose score changed")
    void changedPolicyRegradesAllAndListsExactlyTheAffected() throws Exception {
        Path policy = dir.resolve("grading-policy.yml");
        String text = Files.readString(KitLocations.root().resolve(GradingPolicy.FILE));
        Matcher quorum = Pattern.compile("(?m)^(  quorum:\\n(?:    .*\\n)*?    points: )4$").matcher(text);
        assertThat(quorum.find()).as("the kit's policy gives quorum 4 points").isTrue();
        Files.writeString(policy, quorum.replaceFirst("$18"));
        Path out = dir.resolve("new-policy");

        ConsoleRun regrade = grade(batch, out, "--since", old.toString(), "--policy", policy.toString());

        assertThat(regrade.exit()).as("exit code of the regrade; it said: %s", regrade.text()).isZero();
        assertThat(BatchRecord.read(out).reused()).as("the students reused across a policy change").isEmpty();
        assertThat(BatchRecord.read(out).grader()).as("the grader's fingerprint under the new policy")
                .isNotEqualTo(BatchRecord.read(old).grader());
        Map<String, Integer> before = scores(old);
        Map<String, Integer> after = scores(out);
        List<String> moved = STUDENTS.stream().filter(student -> !before.get(student).equals(after.get(student))).toList();
        assertThat(moved).as("students whose score changed with quorum at 8 points: some, not all, so the list means something")
                .isNotEmpty().hasSizeLessThan(STUDENTS.size());
        Map<String, List<String>> rows = regradeRows(out);
        assertThat(rows.values()).as("regrade.csv's outcomes: everyone graded again").allSatisfy(
                row -> assertThat(row.get(1)).isEqualTo("regraded"));
        assertThat(rows.entrySet().stream().filter(row -> row.getValue().get(7).equals("yes")).map(Map.Entry::getKey))
                .as("regrade.csv's changed students").containsExactlyElementsOf(moved);
        assertThat(Files.readString(out.resolve("regrade.md"))).as("regrade.md")
                .contains("The grader changed").contains("**Changed: " + moved.size() + " of 3 student(s)**: " + String.join(", ", moved) + ".");
    }

    @Test
    @DisplayName("shards regraded since a batch reuse their students, and their merge keeps the fingerprints for the next regrade")
    void shardsAndTheirMergeCarryTheFingerprints() throws Exception {
        List<Path> shards = new ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            Path out = dir.resolve("shard-" + i);
            ConsoleRun shard = grade(batch, out, "--since", old.toString(), "--shard", i + "/2");
            assertThat(shard.exit()).as("exit code of shard %d/2 since the first batch; it said: %s", i, shard.text()).isZero();
            assertThat(BatchRecord.read(out).reused()).as("students reused by shard %d/2: all it graded, and some", i)
                    .isNotEmpty().isEqualTo(BatchRecord.read(out).graded());
            shards.add(out);
        }
        Path merged = dir.resolve("merged");
        assertThat(GradebookCommand.run("merge", shards.get(0).toString(), shards.get(1).toString(), "--out", merged.toString()))
                .as("exit code of the merge").isZero();
        assertThat(BatchRecord.read(merged).fingerprints()).as("the merged fingerprints")
                .isEqualTo(BatchRecord.read(old).fingerprints());
        Path out = dir.resolve("new-since-merged");

        ConsoleRun regrade = grade(batch, out, "--since", merged.toString());

        assertThat(regrade.exit()).as("exit code of the regrade since the merge; it said: %s", regrade.text()).isZero();
        assertThat(BatchRecord.read(out).reused()).as("students reused since the merge").containsExactlyElementsOf(STUDENTS);
    }

    @Test
    @DisplayName("a --since that is missing, not a batch output or of an older format is refused clearly and nothing is written")
    void badSinceIsRefusedAndWritesNothing() throws Exception {
        Path oldFormat = dir.resolve("old-format");
        FileTrees.copy(old, oldFormat);
        BatchRecord record = BatchRecord.read(old);
        Files.writeString(oldFormat.resolve(BatchRecord.FILE), "{\"shard\":\"1/1\",\"students\":[\"ada\",\"bo\",\"chen\"],"
                + "\"graded\":[\"ada\",\"bo\",\"chen\"]}");
        Map<Path, String> cases = new LinkedHashMap<>();
        cases.put(dir.resolve("no-such-folder"), "there is no such folder");
        cases.put(batch, "is not the output of ./kit grade --batch: it has no batch.json");
        cases.put(oldFormat, "was graded by an earlier version of the grader, which kept no fingerprints");
        cases.put(batch.resolve("ada/ANSWERS.md"), "is not a folder");
        int i = 0;
        for (Map.Entry<Path, String> bad : cases.entrySet()) {
            Path out = dir.resolve("refused-" + i++);

            ConsoleRun refused = grade(batch, out, "--since", bad.getKey().toString());

            assertThat(refused.exit()).as("exit code with --since %s; it said: %s", bad.getKey(), refused.text()).isEqualTo(2);
            assertThat(refused.text()).as("why --since %s was refused", bad.getKey()).contains("--since").contains(bad.getValue())
                    .doesNotContain("Exception");
            assertThat(out).as("the --out of the refused regrade").doesNotExist();
        }
        ConsoleRun inside = grade(batch, old.resolve("again"), "--since", old.toString());
        assertThat(inside.exit()).as("exit code with --out inside --since").isEqualTo(2);
        assertThat(old.resolve("again")).as("the --out inside the earlier batch").doesNotExist();
        assertThat(BatchRecord.read(old)).as("the earlier batch's record, untouched").isEqualTo(record);
    }

    private static Map<String, Integer> scores(Path out) throws IOException {
        Map<String, Integer> scores = new LinkedHashMap<>();
        for (GradebookRow row : GradebookRow.read(out.resolve("gradebook.csv"))) {
            assertThat(row.score()).as("%s's score in %s's gradebook", row.student(), out.getFileName()).isNotNull();
            scores.put(row.student(), row.score());
        }
        assertThat(scores).as("the students of %s's gradebook", out.getFileName()).containsOnlyKeys(STUDENTS);
        return scores;
    }

    /**
     * regrade.csv's rows by student; the last cell (the tests, in quotes when they hold a comma) read whole. Read raw: the
     * kit writes regrade.csv for people and their spreadsheets, and has no reader of it to go through.
     */
    private static Map<String, List<String>> regradeRows(Path out) throws IOException {
        List<String> lines = Files.readAllLines(out.resolve("regrade.csv"));
        assertThat(lines.get(0)).as("regrade.csv's header").isEqualTo(RegradeReport.CSV_HEADER);
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            List<String> cells = new ArrayList<>(List.of(line.split(",", 9)));
            String last = cells.get(8);
            cells.set(8, last.startsWith("\"") ? last.substring(1, last.length() - 1).replace("\"\"", "\"") : last);
            rows.put(cells.get(0), cells);
        }
        return rows;
    }

    private static ConsoleRun grade(Path batch, Path out, String... more) {
        // Generous limits: this is about what is reused and compared, and must not hang on how busy the machine is.
        List<String> args = new ArrayList<>(List.of("--batch", batch.toString(), "--out", out.toString(), "--no-etcd",
                "--jobs", "1"));
        args.addAll(List.of(more));
        return ConsoleRun.of(() -> GradeCommand.run(args.toArray(String[]::new)));
    }
}
