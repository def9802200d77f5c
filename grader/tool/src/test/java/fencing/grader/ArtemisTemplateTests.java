package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestSuite;
import fencing.grader.report.ArtemisExercise;
import fencing.grader.report.ArtemisSuite;
import fencing.grader.report.ReportText;
import fencing.support.FileTrees;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Artemis's template as Artemis's own build runs it: the build image built once from the {@code -tests} repository of
 * {@code ./kit package artemis}'s zip, then, per submission, the build script from the zip's {@code Exercise-Details} run in
 * a fresh container under the limits Artemis gives a build ({@code --cpus 2 --memory 2g --pids-limit 1000}, host
 * networking), with the tests repository's policy in the working folder and the submission in {@code assignment/}. The
 * XML it leaves in {@code target/surefire-reports} is read by the rules of Artemis's parser ({@link ArtemisResults}) and
 * held to {@code ./kit grade}'s per-test verdicts, as the catalog's record keeps them.
 *
 * <p>No registry is reachable from the kit's CI, so the image starts from a local Debian image named by
 * {@code KIT_ARTEMIS_BASE} (default {@code local/debian:bookworm}, which {@code .ci/debian-image.sh} makes);
 * {@code KIT_REQUIRE_DOCKER=true} makes a missing engine or base image a failure instead of a skip.
 */
@Tag("etcd")
// Beside the other classes: it builds nothing in the kit's own tree (the package uses this run's grader, the image builds
// inside Docker).
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock("artemis-template")
class ArtemisTemplateTests {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration LIMIT = Duration.ofMinutes(10);
    private static final String IMAGE = "fencing-kit-artemis:test-" + UUID.randomUUID().toString().substring(0, 8);
    private static final String WORKING_FOLDER = "/var/tmp/testing-dir";

    @TempDir
    Path dir;

    private static CommandRun build;
    private static String unavailable;
    private static String script;
    private static Path tests;
    /** Each hidden test's name in Artemis, by its name in the kit ({@code Class › display name}). */
    private static Map<String, String> artemisNames;

    @BeforeAll
    static void buildTheImage() throws Exception {
        String base = System.getenv().getOrDefault("KIT_ARTEMIS_BASE", "local/debian:bookworm");
        unavailable = Docker.cannotBuildOn(base);
        if (unavailable != null) {
            return;
        }
        tests = ArtemisPackage.repository("tests");
        script = JSON.readTree(ArtemisPackage.unpacked().resolve("Exercise-Details-" + ArtemisExercise.SHORT_NAME + ".json").toFile())
                .path("buildConfig").path("buildScript").asText();
        artemisNames = TestSuite.HIDDEN.discover(true).stream().collect(Collectors.toMap(TestCase::name, ArtemisSuite::testName));
        build = Docker.build(IMAGE, base, List.of("-f", tests.resolve("grader/templates/artemis/Dockerfile").toString()), tests,
                tests.resolveSibling("docker-build.log"), "artemis: docker build of the build image from the -tests repository");
    }

    @AfterAll
    static void removeTheImage() {
        if (build != null) {
            Docker.removeImage(IMAGE);
        }
    }

    @Test
    @DisplayName("the -solution repository, as Artemis builds it: every graded test passes, in one XML per test class")
    void theSolutionRepositoryPassesEveryTest() throws Exception {
        requireTheImage();

        Map<String, ArtemisResults.Result> results = runBuild(ArtemisPackage.repository("solution"),
                "the -solution repository").results();

        assertThat(results.keySet()).as("the tests Artemis reads").containsExactlyInAnyOrderElementsOf(artemisNames.values());
        assertThat(results).as("the tests that failed").allSatisfy((name, result) -> assertThat(result.passed())
                .as("%s passed; message: %s", name, result.message()).isTrue());
    }

    @Test
    @DisplayName("a wrong entry: exactly the tests ./kit grade fails fail, and a failing test's message states the rule")
    void aWrongEntryFailsWhatTheGradeFails() throws Exception {
        requireTheImage();
        Path entry = KitLocations.catalog().resolve("wrong/resource-strictly-greater");

        Map<String, ArtemisResults.Result> results = runBuild(CatalogSubmissions.assemble(entry, dir.resolve("wrong")),
                "a wrong entry").results();

        Set<String> failing = assertVerdictsAsRecorded(entry, results);
        List<String> rules = CatalogSubmissions.expectedRules(entry);
        assertThat(failing).as("the wrong entry's failing tests, one of which states the rule").isNotEmpty()
                .anySatisfy(name -> assertThat(results.get(name).message()).as("%s's message", name).contains(rules));
    }

    @Test
    @DisplayName("a submission with a file that does not compile: graded with that file as the kit's stub, and the"
            + " compiler's message, angle brackets and all, in the build log students read")
    void aFileThatDoesNotCompileIsSetAside() throws Exception {
        requireTheImage();

        Build build = runBuild(TemplateSubmissions.uncompilable(dir.resolve("uncompilable")),
                "a submission with a file that does not compile");

        assertThat(build.results().values()).as("the verdicts of a submission whose Quorum.java does not compile")
                .anyMatch(ArtemisResults.Result::passed).anyMatch(result -> !result.passed());
        assertThat(build.results().keySet().stream().filter(name -> name.startsWith("QuorumGradedTests.")).toList())
                .as("the Quorum tests, graded against the stub").isNotEmpty()
                .allSatisfy(name -> assertThat(build.results().get(name).passed()).as("%s passed", name).isFalse());
        assertThat(build.log()).as("the build log").contains(TemplateSubmissions.SET_ASIDE).contains(TemplateSubmissions.COMPILER_SAYS);
    }

    @Test
    @DisplayName("an empty submission: every test fails, saying the folder is empty")
    void anEmptySubmissionFailsEveryTestSayingWhy() throws Exception {
        requireTheImage();

        Map<String, ArtemisResults.Result> results = runBuild(TemplateSubmissions.empty(dir.resolve("empty")),
                "an empty submission").results();

        assertThat(results.keySet()).as("the tests Artemis reads").containsExactlyInAnyOrderElementsOf(artemisNames.values());
        List<String> report = CatalogSubmissions.expectedReport(KitLocations.catalog().resolve("unfit/empty"));
        assertThat(results).as("the verdicts of an empty submission").allSatisfy((name, result) -> assertThat(result.message())
                .as("%s's message", name).contains(report));
    }

    @Test
    @DisplayName("a submission that exits the JVM in a test: the tests it exits in fail saying so, as ./kit grade's do")
    void aHostileSubmissionIsGradedAsTheGradeIs() throws Exception {
        requireTheImage();
        Path entry = KitLocations.catalog().resolve("hostile/exit-in-method");

        Map<String, ArtemisResults.Result> results = runBuild(CatalogSubmissions.assemble(entry, dir.resolve("exits")),
                "a hostile entry").results();

        Set<String> failing = assertVerdictsAsRecorded(entry, results);
        List<String> report = CatalogSubmissions.expectedReport(entry);
        assertThat(failing).as("the failing tests of a submission that exits").isNotEmpty().allSatisfy(name ->
                assertThat(results.get(name).message()).as("%s's message", name).contains(report));
    }

    @Test
    @DisplayName("failing tests that throw 300,000-character messages: each message cut to the kit's limit, saying so,"
            + " within Artemis's 20,000 characters")
    void floodedMessagesAreCut() throws Exception {
        requireTheImage();
        Path entry = KitLocations.catalog().resolve("hostile/floods-messages");

        Map<String, ArtemisResults.Result> results = runBuild(CatalogSubmissions.assemble(entry, dir.resolve("floods")),
                "a flooding entry").results();

        Set<String> failing = assertVerdictsAsRecorded(entry, results);
        assertThat(failing).as("the flooding entry's failing tests").isNotEmpty().allSatisfy(name -> {
            String message = results.get(name).message();
            assertThat(message.length()).as("the length of %s's message", name).isLessThanOrEqualTo(ReportText.TEST_OUTPUT_LIMIT);
            assertThat(message).as("%s's message", name).contains("Quorum.size will not decide").contains(ReportText.CUT);
        });
    }

    private static void requireTheImage() {
        Assumptions.assumeTrue(unavailable == null, () -> "skipped: " + unavailable);
        assertThat(build.exit()).as("docker build of the build image; output:%n%s", build.output()).isZero();
    }

    /**
     * Checks every verdict Artemis reads against the catalog's record of {@code ./kit grade}'s for {@code entry}, and returns
     * the tests that failed, by their names in Artemis.
     */
    private static Set<String> assertVerdictsAsRecorded(Path entry, Map<String, ArtemisResults.Result> results) throws Exception {
        Set<String> recorded = CatalogVerdicts.read(CatalogVerdicts.file()).failing().get(CatalogVerdicts.key(entry)).stream()
                .map(artemisNames::get).collect(Collectors.toSet());
        assertThat(results.keySet()).as("the tests Artemis reads").containsExactlyInAnyOrderElementsOf(artemisNames.values());
        Set<String> failing = results.entrySet().stream().filter(result -> !result.getValue().passed()).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
        assertThat(failing).as("the tests that fail in Artemis, against those ./kit grade fails (%s)", CatalogVerdicts.key(entry))
                .isEqualTo(recorded);
        return failing;
    }

    /**
     * Runs the exercise's build script as Artemis's build does: a fresh container of the image, Artemis's limits, the
     * tests repository's policy in the working folder and {@code submission} as {@code assignment/}; returns what
     * Artemis reads of {@code target/surefire-reports}, and the log.
     */
    private Build runBuild(Path submission, String what) throws Exception {
        Path working = Files.createDirectories(dir.resolve("testing-dir"));
        FileTrees.copy(submission, working.resolve("assignment"));
        Files.createDirectories(working.resolve("grader"));
        Files.copy(tests.resolve("grader/grading-policy.yml"), working.resolve("grader/grading-policy.yml"));
        Path scriptFile = dir.resolve("script.sh");
        Files.writeString(scriptFile, script, StandardCharsets.UTF_8);
        String container = IMAGE.replace(':', '-') + "-" + UUID.randomUUID().toString().substring(0, 8);
        long start = System.nanoTime();
        CommandRun run;
        try {
            run = CommandRun.of(List.of("docker", "run", "--rm", "--name", container, "--cpus", "2", "--memory", "2g",
                    "--pids-limit", "1000", "--network", "host", "-v", working + ":" + WORKING_FOLDER,
                    "-v", scriptFile + ":/var/tmp/script.sh:ro", IMAGE, "bash", "/var/tmp/script.sh"), Map.of(), dir,
                    dir.resolve("build-script.log"), LIMIT);
        } finally {
            // A container the client stopped waiting for would go on running: nothing started here outlives the test.
            Docker.answers(List.of("rm", "-f", container));
        }
        Uploads.record(String.format(Locale.ROOT, "artemis: the build script on %s, --cpus 2 --memory 2g --pids-limit 1000:"
                + " %.1f s from docker run to its end", what, (System.nanoTime() - start) / 1e9));
        assertThat(run.exit()).as("exit code of the build script; output:%n%s", run.output()).isZero();
        assertThat(run.output()).as("the build log, which students read").doesNotContain("## For staff");
        Path reports = working.resolve(ArtemisSuite.FOLDER);
        assertThat(ArtemisResults.files(reports)).as("the XML files in %s", ArtemisSuite.FOLDER).isNotEmpty()
                .allSatisfy(file -> assertThat(file.getFileName().toString()).as("a report's name").startsWith("TEST-fencing."));
        return new Build(ArtemisResults.read(reports), run.output());
    }

    /** What one run of the build script left: the results Artemis reads, and the build log. */
    private record Build(Map<String, ArtemisResults.Result> results, String log) {
    }
}
