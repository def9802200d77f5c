package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.grader.report.ReportText;
import fencing.grader.report.Reports;
import fencing.support.LoopbackPorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Classroom 50's template for real: the bundle {@code ./kit package classroom50} writes, its {@code autograder.py} run
 * in a student's checkout with the environment Classroom 50's runner gives it, and its {@code result.json} checked
 * against a schema written from Classroom 50's contract, with the identity, the sums and whole-number scores it requires.
 */
@Tag("etcd")
// Beside the other classes (see junit-platform.properties): it builds nothing in the kit's own tree, so the grades the
// other classes run there never see a class file change under them.
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock("classroom50-template")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Classroom50TemplateTests {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration LIMIT = Duration.ofMinutes(15);

    // Shared by every case, which all grade the one bundle packaged before them.
    @TempDir
    static Path dir;

    private Path bundle;
    private Path unpacked;

    @BeforeAll
    void packageTheBundleAsAnInstructorWould() throws Exception {
        bundle = dir.resolve("bundle");
        CommandRun packaged = CommandRun.of(List.of(KitLocations.root().resolve("kit").toString(), "package", "classroom50",
                "--out", bundle.toString()), Map.of(), KitLocations.root(), dir.resolve("package.log"), LIMIT);
        assertThat(packaged.exit()).as("exit code of ./kit package classroom50; output:%n%s", packaged.output()).isZero();
        assertThat(bundle.resolve("kit.tar.gz")).as("the kit in the bundle").isRegularFile();
        assertThat(Files.size(bundle.resolve("kit.tar.gz"))).as("the bundle's kit, against Classroom 50's 10 MB cap")
                .isLessThan(10L << 20);
        // The bundle's own kit, unpacked once and used as KIT_DIR by the cases that need not unpack it again.
        unpacked = Files.createDirectories(dir.resolve("unpacked"));
        CommandRun untar = CommandRun.of(List.of("tar", "-xzf", bundle.resolve("kit.tar.gz").toString(), "-C", unpacked.toString()),
                Map.of(), dir, dir.resolve("untar.log"), LIMIT);
        assertThat(untar.exit()).as("tar -xzf kit.tar.gz: %s", untar.output()).isZero();
        assertThat(unpacked.resolve("solutions/src")).as("the reference solutions' sources in the bundle").doesNotExist();
        assertThat(unpacked.resolve("grader/tests/catalog")).as("the catalog in the bundle").doesNotExist();
    }

    @Test
    @DisplayName("the solutions, graded from the bundle as Classroom 50 runs it: full marks in a valid result.json, and a Release body")
    void theSolutionsGetFullMarksFromTheBundle() throws Exception {
        Path checkout = checkout(KitLocations.solutions(), "solutions");

        long start = System.nanoTime();
        CommandRun run = autograder(checkout, Map.of());
        Uploads.record(String.format(java.util.Locale.ROOT, "classroom50: autograder.py from the bundle on the solutions, the"
                + " kit unpacked and built (offline) first: %.1f s", (System.nanoTime() - start) / 1e9));

        JsonNode result = checkedResult(checkout, run);
        assertThat(result.path("score").asInt(-1)).as("the solutions' score").isEqualTo(result.path("max-score").asInt()).isPositive();
        assertThat(Files.readString(checkout.resolve("release-body.md"))).as("the Release body")
                .contains("Score:").doesNotContain(Reports.STAFF_HEADING).doesNotContain("Rubric");
        assertThat(checkout.resolve(Reports.STAFF_NOTES)).as("the staff's file in the student's checkout").doesNotExist();
        assertThat(run.output()).as("autograder.py's output, the job's log, which the student can read too")
                .doesNotContain(Reports.STAFF_HEADING).doesNotContain("Rubric");
    }

    @Test
    @DisplayName("the runtime block sets up Java 17 and Debian's etcd, and autograder.py is valid Python")
    void theRuntimeBlockSetsUpWhatTheKitNeeds() throws Exception {
        Path template = TemplatesTests.templatesDir().resolve("classroom50");
        JsonNode runtime = JSON.readTree(template.resolve("runtime.json").toFile());

        assertThat(runtime.path("java").asText()).as("runtime.json's java").isEqualTo("17");
        assertThat(runtime.path("apt").toString()).as("runtime.json's apt packages").contains("etcd-server").contains("etcd-client");
        CommandRun compiled = CommandRun.of(List.of("python3", "-m", "py_compile", template.resolve("autograder.py").toString()),
                Map.of("PYTHONPYCACHEPREFIX", dir.resolve("pycache").toString()), dir, dir.resolve("py_compile.log"), LIMIT);
        assertThat(compiled.exit()).as("python3 -m py_compile autograder.py: %s", compiled.output()).isZero();
    }

    @Test
    @DisplayName("a wrong entry loses points on the property it breaks, each test keeping the kit's fields")
    void aWrongEntryLosesPointsOnItsProperty() throws Exception {
        Path entry = KitLocations.catalog().resolve("wrong/lock-racy-counter");
        Path checkout = checkout(CatalogSubmissions.assemble(entry, dir.resolve("wrong")), "wrong-checkout");

        CommandRun run = autograder(checkout, Map.of("KIT_DIR", unpacked.toString()));

        JsonNode result = checkedResult(checkout, run);
        assertThat(result.path("score").asInt()).as("the wrong entry's score").isLessThan(result.path("max-score").asInt());
        for (String tag : CatalogSubmissions.expectedTags(entry)) {
            assertThat(tests(result)).as("a failed test tagged %s", tag).anySatisfy(test -> {
                assertThat(test.path("passed").asBoolean(true)).as("passed").isFalse();
                assertThat(StreamSupport.stream(test.path("tags").spliterator(), false).map(JsonNode::asText)).contains(tag);
                assertThat(test.path("status").asText()).as("the kit's status field").isEqualTo("failed");
            });
        }
    }

    @Test
    @DisplayName("a failing test that throws 300,000 characters, in a checkout with a git history: the Release body stays"
            + " under GitHub's 125,000 characters, says where it was cut, and holds no line for the instructor")
    void aFloodedMessageKeepsTheReleaseBodyWithinGitHubsLimit() throws Exception {
        Path entry = KitLocations.catalog().resolve("hostile/floods-messages");
        Path checkout = checkout(CatalogSubmissions.assemble(entry, dir.resolve("floods")), "floods-checkout");
        StudentHistory.commitPredictionsFirst(checkout, dir);

        CommandRun run = autograder(checkout, Map.of("KIT_DIR", unpacked.toString()));

        checkedResult(checkout, run);
        String body = Files.readString(checkout.resolve("release-body.md"));
        assertThat(body.length()).as("the Release body's length, against GitHub's limit of 125,000 characters").isLessThan(125_000);
        assertThat(body).as("the Release body").contains("Score:").contains(ReportText.CUT).contains(CatalogSubmissions.expectedReport(entry))
                .doesNotContain("Predict first").doesNotContain("for the instructor");
        assertThat(run.output()).as("autograder.py's output, the job's log, which the student can read too").doesNotContain("Predict first");
    }

    @Test
    @DisplayName("a test that exits the JVM, in a checkout with a git history: the Release body says so, and holds no line for the instructor")
    void aTestThatExitsTheJvmIsReportedToTheStudent() throws Exception {
        Path entry = KitLocations.catalog().resolve("hostile/exit-in-method");
        Path checkout = checkout(CatalogSubmissions.assemble(entry, dir.resolve("exits")), "exits-checkout");
        StudentHistory.commitPredictionsFirst(checkout, dir);

        CommandRun run = autograder(checkout, Map.of("KIT_DIR", unpacked.toString()));

        JsonNode result = checkedResult(checkout, run);
        assertThat(result.path("score").asInt()).as("the score of a submission that exits").isLessThan(result.path("max-score").asInt());
        assertThat(Files.readString(checkout.resolve("release-body.md"))).as("the Release body")
                .contains(CatalogSubmissions.expectedReport(entry)).doesNotContain("Predict first").doesNotContain("for the instructor");
    }

    @Test
    @DisplayName("a submission not fit to grade scores 0 in a valid result.json saying why, and grading counts as having run")
    void anUnfitSubmissionScoresZeroSayingWhy() throws Exception {
        Path checkout = checkout(UnfitSubmissions.build(KitLocations.catalog().resolve("unfit/binary-file"), dir.resolve("unfit")),
                "unfit-checkout");

        CommandRun run = autograder(checkout, Map.of("KIT_DIR", unpacked.toString()));

        JsonNode result = checkedResult(checkout, run);
        assertThat(result.path("score").asInt(-1)).as("the unfit submission's score").isZero();
        assertThat(tests(result)).as("its tests").isNotEmpty().allSatisfy(test ->
                assertThat(test.path("output").asText()).as("why a test of an unfit submission failed").startsWith("not graded:"));
    }

    @Test
    @DisplayName("a checkout with a file that does not compile is graded with that file as the kit's stub, the"
            + " compiler's message in the Release body")
    void aFileThatDoesNotCompileIsGradedWithTheCompilersMessage() throws Exception {
        Path checkout = checkout(TemplateSubmissions.uncompilable(dir.resolve("uncompilable")), "uncompilable-checkout");

        JsonNode result = checkedResult(checkout, autograder(checkout, Map.of("KIT_DIR", unpacked.toString())));

        assertThat(result.path("score").asInt(-1)).as("the score of a checkout whose Quorum.java does not compile")
                .isPositive().isLessThan(result.path("max-score").asInt());
        assertThat(Files.readString(checkout.resolve("release-body.md"))).as("the Release body")
                .contains(TemplateSubmissions.SET_ASIDE).contains(TemplateSubmissions.COMPILER_SAYS);
    }

    @Test
    @DisplayName("an empty checkout scores 0 in a valid result.json, each test saying the folder is empty")
    void anEmptyCheckoutScoresZeroSayingWhy() throws Exception {
        Path checkout = TemplateSubmissions.empty(dir.resolve("empty-repo"));

        JsonNode result = checkedResult(checkout, autograder(checkout, Map.of("KIT_DIR", unpacked.toString())));

        assertThat(result.path("score").asInt(-1)).as("the empty checkout's score").isZero();
        String why = CatalogSubmissions.expectedReport(KitLocations.catalog().resolve("unfit/empty")).get(0);
        assertThat(tests(result)).as("its tests").isNotEmpty().allSatisfy(test ->
                assertThat(test.path("output").asText()).as("why a test of an empty checkout failed").contains(why));
    }

    @Test
    @DisplayName("when etcd does not answer, grading could not run: the autograder exits non-zero and writes no result.json")
    void anUnreachableEtcdIsAnInfrastructureError() throws Exception {
        Path checkout = checkout(KitLocations.solutions(), "no-etcd");
        int closed = LoopbackPorts.reserve();

        CommandRun run = autograder(checkout, Map.of("KIT_DIR", unpacked.toString(), "ETCD_ENDPOINTS", "http://127.0.0.1:" + closed));

        assertThat(run.exit()).as("exit code of autograder.py with etcd unreachable; output:%n%s", run.output()).isNotZero();
        assertThat(run.output()).as("what it printed").contains("grading could not run");
        assertThat(checkout.resolve("result.json")).as("a result.json in the checkout").doesNotExist();
    }

    /** Lays out {@code submission} as a student's checkout of the handout holds it. */
    private Path checkout(Path submission, String name) throws IOException {
        Path checkout = dir.resolve(name + "-repo");
        fencing.support.FileTrees.copy(submission.resolve(StudentFiles.SOURCE_ROOT), checkout.resolve(StudentFiles.SOURCE_ROOT));
        for (String beside : StudentFiles.BESIDE_SOURCES) {
            if (Files.isRegularFile(submission.resolve(beside))) {
                Files.copy(submission.resolve(beside), checkout.resolve(beside));
            }
        }
        return checkout;
    }

    private CommandRun autograder(Path checkout, Map<String, String> more) throws Exception {
        Map<String, String> environment = new HashMap<>(ReportAgreement.CLASSROOM50);
        // Everything the bundle's build needs is in the local repository already.
        environment.put("MAVEN_ARGS", "-o");
        environment.putAll(more);
        return CommandRun.of(List.of("python3", bundle.resolve("autograder.py").toString()), environment, checkout,
                dir.resolve(checkout.getFileName() + ".log"), LIMIT);
    }

    private JsonNode checkedResult(Path checkout, CommandRun run) throws Exception {
        assertThat(run.exit()).as("exit code of autograder.py; output:%n%s", run.output()).isZero();
        Path file = checkout.resolve("result.json");
        assertThat(PlatformSchemas.CLASSROOM50.problems(file)).as("what Classroom 50's schema finds wrong with %s", file).isEmpty();
        String text = Files.readString(file);
        assertThat(text).as("result.json's numbers: whole, as Classroom 50's runner requires").doesNotContainPattern("\"(score|max-score)\" : -?\\d+\\.");
        JsonNode result = JSON.readTree(text);
        Map<String, String> identity = Map.of("classroom", "CLASSROOM", "assignment", "ASSIGNMENT", "submission", "SUBMISSION_TAG",
                "commit", "COMMIT_URL", "release", "RELEASE_URL", "review", "REVIEW_URL");
        identity.forEach((field, variable) -> assertThat(result.path(field).asText()).as("result.json's %s, from %s", field, variable)
                .isEqualTo(ReportAgreement.CLASSROOM50.get(variable)));
        assertThat(result.path("score").asInt()).as("score, the sum of the tests' scores")
                .isEqualTo(tests(result).stream().mapToInt(test -> test.path("score").asInt()).sum());
        assertThat(result.path("max-score").asInt()).as("max-score, the sum of the tests' max-scores")
                .isEqualTo(tests(result).stream().mapToInt(test -> test.path("max-score").asInt()).sum());
        assertThat(tests(result)).as("tests: passed exactly when earning every point")
                .allSatisfy(test -> assertThat(test.path("passed").asBoolean())
                        .isEqualTo(test.path("score").asInt() == test.path("max-score").asInt()));
        return result;
    }

    private static List<JsonNode> tests(JsonNode result) {
        return StreamSupport.stream(result.path("tests").spliterator(), false).toList();
    }
}
