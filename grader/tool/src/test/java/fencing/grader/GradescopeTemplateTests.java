package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.grader.report.GradescopeResults;
import fencing.grader.report.ReportText;
import fencing.grader.report.Reports;
import fencing.reasoning.AnswerKey;
import fencing.support.FileTrees;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.StreamSupport;
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
 * Gradescope's template as Gradescope runs it: the zip {@code ./kit package gradescope} writes, unpacked into
 * {@code /autograder/source} of an image built the way Gradescope's manual Docker configuration builds one (its
 * {@code setup.sh} run once, in the build), then {@code /autograder/run_autograder} in a fresh container per submission,
 * under Gradescope's default share of a machine (half a CPU, 768 MB), its {@code results.json} checked against a schema
 * written from Gradescope's specification.
 *
 * <p>The image is built once for the class. No registry is reachable from the kit's CI, so it starts from a local Debian
 * image named by {@code KIT_GRADESCOPE_BASE} (CI makes one with debootstrap); {@code KIT_REQUIRE_DOCKER=true} makes a
 * missing engine or base image a failure instead of a skip.
 */
@Tag("etcd")
// Beside the other classes (see junit-platform.properties): it builds nothing in the kit's own tree, so the grades the
// other classes run there never see a class file change under them.
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock("gradescope-template")
class GradescopeTemplateTests {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration LIMIT = Duration.ofMinutes(10);
    private static final String IMAGE = "fencing-kit-gradescope:test-" + UUID.randomUUID().toString().substring(0, 8);

    @TempDir
    static Path classDir;

    @TempDir
    Path dir;

    private static CommandRun build;
    private static String unavailable;

    @BeforeAll
    static void buildTheImage() throws Exception {
        String base = System.getenv().getOrDefault("KIT_GRADESCOPE_BASE", "local/debian:bookworm");
        unavailable = Docker.cannotBuildOn(base);
        if (unavailable != null) {
            return;
        }
        Path upload = classDir.resolve("upload");
        CommandRun packaged = CommandRun.of(List.of(KitLocations.root().resolve("kit").toString(), "package", "gradescope",
                "--out", upload.toString()), Map.of(), KitLocations.root(), classDir.resolve("package.log"), LIMIT);
        assertThat(packaged.exit()).as("./kit package gradescope: %s", packaged.output()).isZero();
        Path context = Files.createDirectories(classDir.resolve("image"));
        Uploads.unzip(upload.resolve("autograder.zip"), context.resolve("source"));
        try (InputStream dockerfile = GradescopeTemplateTests.class.getResourceAsStream("/gradescope-image/Dockerfile")) {
            assertThat(dockerfile).as("gradescope-image/Dockerfile in the test resources").isNotNull();
            Files.copy(dockerfile, context.resolve("Dockerfile"));
        }
        // Uncached, as Gradescope builds it: a layer cached by an earlier build of the same files would skip setup.sh's check.
        build = Docker.build(IMAGE, base, List.of("--no-cache"), context, classDir.resolve("docker-build.log"),
                "gradescope: docker build of the autograder image, setup.sh included");
    }

    @AfterAll
    static void removeTheImage() {
        if (build != null) {
            Docker.removeImage(IMAGE);
        }
    }

    @Test
    @DisplayName("setup.sh, run as Gradescope builds the image, gives the reference solutions (answers and evidence included)"
            + " full marks, then leaves no solutions and no catalog in the image")
    void setupChecksTheSolutionsAndRemovesThem() {
        requireTheImage();
        assertThat(build.output()).as("setup.sh's check of the image").contains("setup: the reference solutions get full marks in this image");
        assertThat(Docker.answers(List.of("run", "--rm", "--network", "none", IMAGE, "sh", "-c",
                "test -x /autograder/run_autograder && test ! -e /autograder/source/solutions"
                        + " && test ! -e /autograder/source/grader/tests/catalog")))
                .as("the image has /autograder/run_autograder, and no reference solutions or catalog").isTrue();
    }

    @Test
    @DisplayName("the solutions uploaded as loose files, under half a CPU and 768 MB: full marks, a total students see,"
            + " plain-text outputs, and the explanations for staff in extra_data and the staff-only output, never in results/")
    void theSolutionsGetFullMarksAndStudentsSeeTheirTotal() throws Exception {
        requireTheImage();
        Path submission = Uploads.looseFiles(KitLocations.solutions(), dir.resolve("submission"));

        Run run = runAutograder(submission, "the solutions");

        JsonNode results = run.results();
        assertThat(results.path("score").asInt(-1)).as("the solutions' score; output: %s", results.path("output").asText())
                .isEqualTo(results.path("max_score").asInt()).isPositive();
        assertThat(results.path("output").asText()).as("what the container's sandbox could do, in the report")
                .contains("the tests ran as nobody");
        assertThat(tests(results)).as("tests hidden from students, which would hide their total").isNotEmpty()
                .noneMatch(test -> "hidden".equals(test.path("visibility").asText()));
        assertThat(results.path("output_format").asText()).as("the top-level output_format").isEqualTo("text");
        assertThat(tests(results)).as("each test's output_format").allMatch(test -> "text".equals(test.path("output_format").asText()));
        int questions = AnswerKey.QUESTIONS.size() + AnswerKey.OPEN_QUESTIONS.size();
        assertThat(results.path("extra_data").path(GradescopeResults.EXPLANATIONS)).as("the explanations kept for staff in extra_data")
                .hasSize(questions).allMatch(explanation -> !explanation.path("text").asText().isBlank()
                        && !explanation.path("rubric").asText().isBlank());
        assertThat(results.path("stdout_visibility").asText()).as("stdout_visibility").isEqualTo("hidden");
        assertThat(run.output()).as("run_autograder's output, which Gradescope shows staff only").contains(Reports.STAFF_HEADING)
                .contains("Rubric: ");
        Path folder = run.file().getParent();
        assertThat(folder.resolve(Reports.SUMMARY)).as("the student's summary.md beside results.json").isRegularFile();
        assertThat(Files.readString(folder.resolve(Reports.SUMMARY))).as("the student's summary.md")
                .doesNotContain(Reports.STAFF_HEADING).doesNotContain("Rubric");
        assertThat(folder.resolve(Reports.STAFF_NOTES)).as("the staff's file in /autograder/results").doesNotExist();
    }

    @Test
    @DisplayName("a repository uploaded: the untouched stubs get 0, in a results.json Gradescope reads")
    void theStubsUploadedAsARepositoryGetZero() throws Exception {
        requireTheImage();
        Path repository = dir.resolve("submission/fencing-student-repo");
        FileTrees.copy(KitLocations.exercises().resolve("src/main"), repository.resolve("src/main"));
        Files.copy(KitLocations.exercises().resolve("ANSWERS.md"), repository.resolve("ANSWERS.md"));

        JsonNode results = runAutograder(dir.resolve("submission"), "the stubs").results();

        assertThat(results.path("max_score").asInt()).as("the maximum score").isPositive();
        assertThat(results.path("score").asInt(-1)).as("the stubs' score").isZero();
    }

    @Test
    @DisplayName("failing tests that throw 300,000-character messages: each output is cut to its limit, saying so,"
            + " in a results.json of a few kilobytes")
    void floodedMessagesAreCutToTheLimit() throws Exception {
        requireTheImage();
        Path entry = KitLocations.catalog().resolve("hostile/floods-messages");
        CatalogSubmissions.assemble(entry, dir.resolve("submission/fencing-student-repo"));

        Run run = runAutograder(dir.resolve("submission"), "hostile/floods-messages");

        JsonNode results = run.results();
        assertThat(results.path("score").asInt(-1)).as("the flooding entry's score").isLessThan(results.path("max_score").asInt());
        List<JsonNode> flooded = tests(results).stream().filter(test -> test.path("tags").toString().contains("\"quorum\"")).toList();
        assertThat(flooded).as("the quorum tests, whose messages the entry floods").isNotEmpty().allSatisfy(test -> {
            String output = test.path("output").asText();
            assertThat(output.length()).as("the length of %s's output", test.path("name")).isLessThanOrEqualTo(ReportText.TEST_OUTPUT_LIMIT);
            assertThat(output).as("%s's output", test.path("name")).contains("Quorum.size will not decide").contains(ReportText.CUT)
                    .endsWith(" more characters]");
        });
        assertThat(tests(results)).as("every test's output").allSatisfy(test -> assertThat(test.path("output").asText().length())
                .as("the length of %s's output", test.path("name")).isLessThanOrEqualTo(ReportText.TEST_OUTPUT_LIMIT));
        assertThat(Files.size(run.file())).as("the size of results.json").isLessThan(200_000);
    }

    @Test
    @DisplayName("a wrong entry uploaded as loose files: it loses points on the property it breaks, and the failing test's"
            + " output, which students see, states the rule")
    void aWrongEntryLosesPointsAndSeesTheRule() throws Exception {
        requireTheImage();
        Path entry = KitLocations.catalog().resolve("wrong/resource-strictly-greater");
        Path submission = Uploads.looseFiles(CatalogSubmissions.assemble(entry, dir.resolve("wrong")), dir.resolve("submission"));

        JsonNode results = runAutograder(submission, "wrong/resource-strictly-greater").results();

        assertThat(results.path("score").asInt(-1)).as("the wrong entry's score").isLessThan(results.path("max_score").asInt());
        for (String tag : CatalogSubmissions.expectedTags(entry)) {
            assertThat(tests(results)).as("a visible test tagged %s that earned less than its points and states the rule %s",
                    tag, CatalogSubmissions.expectedRules(entry)).anySatisfy(test -> {
                        assertThat(test.path("tags").toString()).as("tags").contains("\"" + tag + "\"");
                        assertThat(test.path("score").asDouble()).as("score").isLessThan(test.path("max_score").asDouble());
                        assertThat(test.path("visibility").asText()).as("visibility").isEqualTo("visible");
                        assertThat(test.path("output").asText()).as("output").contains(CatalogSubmissions.expectedRules(entry));
                    });
        }
    }

    @Test
    @DisplayName("a submission with a file that does not compile: graded with that file as the kit's stub, and the"
            + " compiler's message in plain text, angle brackets and all")
    void aFileThatDoesNotCompileShowsTheCompilerInPlainText() throws Exception {
        requireTheImage();
        Path submission = Uploads.looseFiles(TemplateSubmissions.uncompilable(dir.resolve("uncompilable")), dir.resolve("submission"));

        JsonNode results = runAutograder(submission, "a submission with a file that does not compile").results();

        assertThat(results.path("score").asInt(-1)).as("the score of a submission whose Quorum.java does not compile")
                .isPositive();
        assertThat(results.path("output_format").asText()).as("the top-level output_format").isEqualTo("text");
        assertThat(results.path("output").asText()).as("the top-level output, which students see")
                .contains(TemplateSubmissions.SET_ASIDE).contains(TemplateSubmissions.COMPILER_SAYS);
    }

    @Test
    @DisplayName("an empty submission: 0, in a valid results.json that says the folder is empty")
    void anEmptySubmissionScoresZeroSayingWhy() throws Exception {
        requireTheImage();
        Path submission = TemplateSubmissions.empty(dir.resolve("submission"));

        JsonNode results = runAutograder(submission, "an empty submission").results();

        assertThat(results.path("score").asInt(-1)).as("the score of an empty submission").isZero();
        assertThat(results.path("output").asText()).as("the top-level output, which students see")
                .contains(CatalogSubmissions.expectedReport(KitLocations.catalog().resolve("unfit/empty")));
    }

    @Test
    @DisplayName("a submission that exits the JVM in a test: the tests it exits in fail saying so, and the grade goes on")
    void aTestThatExitsTheJvmIsReportedToTheStudent() throws Exception {
        requireTheImage();
        Path entry = KitLocations.catalog().resolve("hostile/exit-in-method");
        Path submission = Uploads.looseFiles(CatalogSubmissions.assemble(entry, dir.resolve("exits")), dir.resolve("submission"));

        JsonNode results = runAutograder(submission, "hostile/exit-in-method").results();

        assertThat(results.path("score").asInt(-1)).as("the score of a submission that exits").isPositive()
                .isLessThan(results.path("max_score").asInt());
        assertThat(tests(results).stream().filter(test -> test.path("tags").toString().contains("\"quorum\"")).toList())
                .as("the quorum tests, in which the entry exits").isNotEmpty().allSatisfy(test ->
                        assertThat(test.path("output").asText()).as("%s's output", test.path("name"))
                                .contains(CatalogSubmissions.expectedReport(entry)));
    }

    /** What one run of {@code run_autograder} in a fresh container left: its {@code results.json}, read, and its output. */
    private record Run(Path file, JsonNode results, String output) {
    }

    private static void requireTheImage() {
        Assumptions.assumeTrue(unavailable == null, () -> "skipped: " + unavailable);
        assertThat(build.exit()).as("docker build of the autograder image, setup.sh included; output:%n%s", build.output()).isZero();
    }

    /** Runs {@code /autograder/run_autograder} on {@code submission} as Gradescope does: a fresh container, its default share. */
    private Run runAutograder(Path submission, String what) throws Exception {
        Path results = Files.createDirectories(dir.resolve("results"));
        for (Path folder : List.of(dir, submission, results)) {
            Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        String container = IMAGE.replace(':', '-') + "-" + UUID.randomUUID().toString().substring(0, 8);
        long start = System.nanoTime();
        CommandRun run;
        try {
            run = CommandRun.of(List.of("docker", "run", "--rm", "--name", container, "--network", "none", "--cpus", "0.5",
                    "--memory", "768m", "-v", submission + ":/autograder/submission", "-v", results + ":/autograder/results",
                    IMAGE, "/autograder/run_autograder"), Map.of(), dir, dir.resolve("run_autograder.log"), LIMIT);
        } finally {
            // A container the client stopped waiting for would go on running: nothing started here outlives the test.
            Docker.answers(List.of("rm", "-f", container));
        }
        Uploads.record(String.format(Locale.ROOT, "gradescope: run_autograder on %s in the image, --cpus 0.5 --memory 768m:"
                + " %.1f s from docker run to its end", what, (System.nanoTime() - start) / 1e9));
        assertThat(run.exit()).as("exit code of run_autograder; output:%n%s", run.output()).isZero();
        Path file = results.resolve("results.json");
        assertThat(PlatformSchemas.GRADESCOPE.problems(file)).as("what Gradescope's schema finds wrong with %s", file).isEmpty();
        // Read raw: the subject is the file Gradescope takes from the image, in Gradescope's format.
        return new Run(file, JSON.readTree(file.toFile()), run.output());
    }

    private static List<JsonNode> tests(JsonNode results) {
        return StreamSupport.stream(results.path("tests").spliterator(), false).toList();
    }
}
