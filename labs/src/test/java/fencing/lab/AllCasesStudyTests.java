package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.browser.Browser;
import fencing.lab.run.cases.Cases;
import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --case all}, run once for real: every case into a folder of its own, and an index; and what the lab's README
 * says about the files and events of a run, checked against that run.
 */
@Tag("etcd")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(420)
class AllCasesStudyTests {

    private static final Path README = Path.of(System.getProperty("basedir", "."), "README.md");

    @RegisterExtension
    static final Browser browser = new Browser("screenshots");

    private StudyRun run;

    @BeforeAll
    void runEveryCaseOnce(@TempDir Path dir) {
        run = StudyRun.of(dir, "--case", "all", "--repeats", "2", "--writers", "2", "--duration", "3", "--seed", "5");
    }

    @Test
    @DisplayName("--case all writes one folder per case with its evidence of the one schema and its reports, and an index linking them")
    void everyCaseHasAFolderOfItsOwnAndTheIndexLinksThem() throws IOException {
        String index = run.file("report.html");

        assertThat(run.exitCode).as("every case ends as expected; the study said:%n%s%s", run.out, run.err).isZero();
        for (String name : Cases.names()) {
            Path folder = run.dir.resolve(name);
            Evidence.Study evidence = Evidence.read(folder.resolve(Evidence.FILE));
            assertThat(evidence.caseName()).as("the case in %s/evidence.json", name).isEqualTo(name);
            assertThat(evidence.schema()).as("the schema of %s's evidence", name).isEqualTo(Evidence.SCHEMA);
            assertThat(folder.resolve("report.md")).as("%s's report.md", name).isRegularFile();
            assertThat(folder.resolve("report.html")).as("%s's report.html", name).isRegularFile();
            assertThat(index).as("the index links %s's report", name).contains("href=\"" + name + "/report.html\"");
            int repeats = name.equals(Cases.CHAOS) ? 0 : name.equals(Cases.names().get(0)) ? 2 : 1;
            assertThat(evidence.repeats()).as("%s's repeats: --repeats 2 applies to the default case, every other case runs once",
                    name).hasSize(repeats);
            assertThat(evidence.chaos() != null).as("only the chaos case's evidence holds a chaos run: %s", name)
                    .isEqualTo(name.equals(Cases.CHAOS));
        }
        assertThat(run.out).as("the last lines say how every case ended").contains(Cases.names().size() + " of " + Cases.names().size()
                + " cases ended as expected");
        assertThat(Files.exists(run.dir.resolve(Evidence.FILE))).as("no evidence at the top: each case has its own").isFalse();
    }

    @Test
    @DisplayName("axe-core finds no serious or critical accessibility violation on the index, nor on any case's report")
    void axeFindsNoSeriousViolationOnAnyPage() {
        // Every page is checked before the verdict, so that one failure names every page at fault, not the first.
        Map<String, List<String>> violations = new TreeMap<>();
        for (String page : Stream.concat(Stream.of("report.html"), Cases.names().stream().map(name -> name + "/report.html")).toList()) {
            browser.open(run.dir.resolve(page));
            List<String> found = browser.seriousViolations();
            if (!found.isEmpty()) {
                violations.put(page, found);
            }
        }
        assertThat(violations).as("axe-core's serious and critical violations on the index of --case all and each case's report, by page")
                .isEmpty();
    }

    @Test
    @DisplayName("every event the lab's README names is one the lab records and a real run recorded, and every file it lists was written")
    void theReadmesEventsAndFilesAreThoseOfARealRun() throws IOException {
        String readme = Files.readString(README);

        assertThat(ReadmeClaims.events(readme, run.dir)).as("the README's events that no run recorded").isEmpty();
        assertThat(ReadmeClaims.files(readme, run.dir)).as("the README's files that no run wrote").isEmpty();
        assertThat(ReadmeClaims.events(readme + "\nIn `worker-A.log`, `KEEPALIVE-ENDED` appears as A wakes.\n", run.dir))
                .as("a claim about an event spelled as no run records it").singleElement().asString().contains("KEEPALIVE-ENDED");
        assertThat(ReadmeClaims.files(readme.replace("| `repeat-NN/writer-C.log` |", "| `repeat-NN/writer-D.log` |"), run.dir))
                .as("a claim about a file no run writes").singleElement().asString().contains("repeat-NN/writer-D.log");
    }

    @Test
    @DisplayName("worker-A.log holds a line for each report A sent the runner, as the README says: its keepalives, calls and KeepAliveEnded")
    void workerLogHoldsWhatTheReadmeSays() throws IOException {
        Path folder = run.dir.resolve(Cases.ALL.get(0).name());
        List<String> log = Files.readAllLines(folder.resolve("repeat-01/worker-A.log"));
        Evidence.Repeat repeat = Evidence.read(folder.resolve(Evidence.FILE)).repeats().get(0);
        long keepAlives = repeat.trace().events().stream().filter(e -> e.kind() == EventKind.KEEPALIVE).count();
        long calls = repeat.trace().exchanges().stream().filter(call -> call.from().equals("A")).count();

        for (String report : List.of("Started[", "Ready[", "KeepAliveEnded[", "Wrote[")) {
            assertThat(log).as("worker-A.log has its %s line", report).anySatisfy(line -> assertThat(line).contains(" " + report));
        }
        assertThat(log.stream().filter(line -> line.contains(" KeepAlive[")).count()).as("a line per keepalive in the evidence")
                .isEqualTo(keepAlives);
        assertThat(log.stream().filter(line -> line.contains(" Called[")).count()).as("a line per call A made to the sink").isEqualTo(calls);
    }
}
