package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.files.BatchRecord;
import fencing.grader.files.GradebookRow;
import fencing.grader.files.ResultsFile;
import fencing.grader.batch.Shard;
import fencing.grader.batch.ShardMerge;
import fencing.grader.cli.GradeCommand;
import fencing.grader.cli.GradebookCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A class graded in three shards and merged gets the gradebook of the class graded in one batch. */
class ShardedGradingTests {

    private static final List<String> STUDENTS = List.of("ada", "bo", "smith, anna", "chen", "dee", "eve", "fay");

    @TempDir
    Path dir;

    @Test
    @DisplayName("shards 1/3, 2/3 and 3/3, merged, equal the unsharded batch; a student twice is refused, one missing is named")
    void mergedShardsEqualTheWholeBatch() throws Exception {
        Path batch = dir.resolve("batch");
        CatalogSubmissions.assemble(KitLocations.catalog().resolve("wrong/quorum-tolerates-half"), batch.resolve("ada"));
        CatalogSubmissions.assemble(KitLocations.catalog().resolve("correct/quorum-ceil"), batch.resolve("bo"));
        for (String unfit : List.of("smith, anna", "chen", "dee", "eve", "fay")) {
            Files.createDirectories(batch.resolve(unfit));
        }
        Files.writeString(batch.resolve("eve/Quorum.java"), "class Quorum {}\n");
        List<List<String>> parts = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            Shard shard = new Shard(i, 3);
            parts.add(STUDENTS.stream().filter(shard::contains).sorted().toList());
        }
        assertThat(parts.stream().flatMap(List::stream).sorted()).as("the shards' students: each student in exactly one")
                .containsExactlyElementsOf(STUDENTS.stream().sorted().toList());
        assertThat(parts).as("students per shard: every shard has some, so merging them proves something").allSatisfy(
                part -> assertThat(part).isNotEmpty());

        Path whole = dir.resolve("whole");
        assertThat(grade(batch, whole)).as("exit code of the unsharded batch").isZero();
        List<Path> shards = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            Path out = dir.resolve("shard-" + i);
            assertThat(grade(batch, out, "--shard", i + "/3")).as("exit code of shard %d/3", i).isZero();
            assertThat(BatchRecord.read(out).graded()).as("students graded by shard %d/3", i).containsExactlyElementsOf(parts.get(i - 1));
            shards.add(out);
        }
        Path merged = dir.resolve("merged");
        ConsoleRun merge = merge(shards.get(0).toString(), shards.get(1).toString(), shards.get(2).toString(), "--out", merged.toString());

        assertThat(merge.exit()).as("exit code of the merge; it said: %s", merge.text()).isZero();
        // Line for line: the merge must give the very file of the unsharded batch, not only the same values.
        assertThat(Files.readAllLines(merged.resolve("gradebook.csv"))).as("the merged gradebook.csv against the unsharded one")
                .hasSize(STUDENTS.size() + 1).containsExactlyElementsOf(Files.readAllLines(whole.resolve("gradebook.csv")));
        assertThat(Files.readString(merged.resolve("gradebook.md"))).as("the merged gradebook.md against the unsharded one")
                .isEqualTo(Files.readString(whole.resolve("gradebook.md")));
        for (String student : STUDENTS) {
            assertThat(ResultsFile.read(merged.resolve(student).resolve(ResultsFile.FILE)).score())
                    .as("%s's merged results.json score", student)
                    .isEqualTo(ResultsFile.read(whole.resolve(student).resolve(ResultsFile.FILE)).score());
        }

        ConsoleRun twice = merge(shards.get(0).toString(), shards.get(0).toString(), "--out", dir.resolve("twice").toString());
        assertThat(twice.exit()).as("exit code of a merge with shard 1 twice").isEqualTo(2);
        assertThat(twice.text()).as("why it was refused").contains("is graded in two shards").contains(parts.get(0).get(0));

        Path partial = dir.resolve("partial");
        ConsoleRun missing = merge(shards.get(0).toString(), shards.get(1).toString(), "--out", partial.toString());
        assertThat(missing.exit()).as("exit code of a merge without shard 3").isEqualTo(ShardMerge.MISSING);
        assertThat(missing.text()).as("what the merge without shard 3 said").contains("Missing from every shard")
                .contains(String.join(", ", parts.get(2)));
        assertThat(GradebookRow.read(partial.resolve("gradebook.csv"))).as("the partial gradebook: shards 1 and 2")
                .hasSize(parts.get(0).size() + parts.get(1).size()).extracting(GradebookRow::student)
                .containsExactlyInAnyOrderElementsOf(Stream.concat(parts.get(0).stream(), parts.get(1).stream()).toList());
    }

    private static int grade(Path batch, Path out, String... more) {
        // Generous limits: this check is about merging, and must not hang on how busy the machine is.
        List<String> args = new ArrayList<>(List.of("--batch", batch.toString(), "--out", out.toString(), "--no-etcd",
                "--jobs", "1"));
        args.addAll(List.of(more));
        return ConsoleRun.of(() -> GradeCommand.run(args.toArray(String[]::new))).exit();
    }

    private static ConsoleRun merge(String... args) {
        List<String> line = new ArrayList<>(List.of("merge"));
        line.addAll(List.of(args));
        return ConsoleRun.of(() -> GradebookCommand.run(line.toArray(String[]::new)));
    }
}
