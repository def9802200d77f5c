package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Grading side by side changes no grade: a batch graded one at a time and four at a time gets the same gradebook. */
@Tag("etcd")
class ParallelGradingTests {

    /** Entries whose tests race, wait for leases and hold SQLite transactions: what side-by-side runs could disturb. */
    private static final List<String> ENTRIES = List.of("wrong/etcd-key-not-on-lease", "wrong/lock-racy-counter",
            "wrong/sink-deferred-transaction", "correct/etcd-txn-header-revision");

    @TempDir
    Path dir;

    @Test
    @DisplayName("a batch graded with --jobs 1 and with --jobs 4 gets the same scores and failed tags, student by student")
    void scoresDoNotDependOnHowManyRunAtOnce() throws Exception {
        Path batch = dir.resolve("batch");
        for (String entry : ENTRIES) {
            CatalogSubmissions.assemble(KitLocations.catalog().resolve(entry), batch.resolve(entry.replace('/', '-')));
        }
        CatalogSubmissions.assemble(KitLocations.catalog().resolve("correct/quorum-ceil"), batch.resolve("solutions-1"));
        CatalogSubmissions.assemble(KitLocations.catalog().resolve("correct/quorum-ceil"), batch.resolve("solutions-2"));

        List<String> oneAtATime = gradebook(batch, 1);
        List<String> fourAtATime = gradebook(batch, 4);

        assertThat(oneAtATime).as("the gradebook of --jobs 1: a row per student").hasSize(ENTRIES.size() + 3);
        assertThat(oneAtATime.stream().skip(1).map(row -> row.split(",")[1]).distinct())
                .as("scores of --jobs 1: the wrong entries lose points, the correct ones do not, so equal gradebooks mean something")
                .hasSizeGreaterThan(2);
        assertThat(fourAtATime).as("the gradebook of --jobs 4, row by row, against --jobs 1's").containsExactlyElementsOf(oneAtATime);
    }

    private List<String> gradebook(Path batch, int jobs) throws Exception {
        Path out = dir.resolve("out-" + jobs);
        // What side-by-side runs could change is shared state (keys, files, ports), which this compares; a CPU shared
        // four ways can also push a slow test past its timeout, which is the machine's limit, not the grader's, so the
        // per-test limit here is generous.
        int exit = GradeCommand.run("--batch", batch.toString(), "--out", out.toString(), "--jobs", Integer.toString(jobs),
                "--test-timeout", "60");
        assertThat(exit).as("exit code of the batch with --jobs %d", jobs).isZero();
        return Files.readAllLines(out.resolve("gradebook.csv"));
    }
}
