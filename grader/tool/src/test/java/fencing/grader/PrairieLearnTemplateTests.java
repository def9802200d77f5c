package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.grader.report.ReportText;
import fencing.support.LoopbackPorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PrairieLearn's template for real: its entrypoint over a temporary {@code /grade}-shaped root (passed in
 * {@code GRADE_ROOT}), its {@code results.json} checked against a schema written from PrairieLearn's documentation, and,
 * where a Docker engine answers, the image itself built and run as PrairieLearn runs it: no network, 0.9 of a CPU, 2 GiB.
 *
 * <p>No registry is reachable from the kit's CI, so the image is built on a local Debian base named by
 * {@code KIT_PRAIRIELEARN_BASE} (CI makes one with debootstrap); {@code KIT_REQUIRE_DOCKER=true} makes a missing engine
 * or base image a failure instead of a skip.
 */
// Among the first classes of the run (junit-platform.properties): beside the lab's tests and the templates, before the
// catalog's pass starts.
@Order(1)
@Tag("etcd")
class PrairieLearnTemplateTests {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration LIMIT = Duration.ofMinutes(10);
    private static final Duration BUILD_LIMIT = Duration.ofMinutes(30);
    private static final long ONE_MB = 1024 * 1024;

    @TempDir
    Path dir;

    @Test
    @DisplayName("the solutions uploaded as PrairieLearn takes them, loose files and their study zipped: full marks, no"
            + " 'no evidence' note, in a results.json PrairieLearn reads, in a results folder it did not make")
    void theSolutionsGetFullMarks() throws Exception {
        Path root = gradeRoot(KitLocations.solutions(), "solutions");
        StudyZips.of(KitLocations.solutions().resolve(StudentFiles.STUDY), root.resolve("student").resolve(StudentFiles.STUDY_ARCHIVE));

        CommandRun run = entrypoint(root, Map.of());

        JsonNode results = checkedResults(root, run);
        assertThat(results.path("gradable").asBoolean(false)).as("gradable").isTrue();
        assertThat(results.path("score").asDouble(-1)).as("the solutions' score; message: %s", results.path("message").asText())
                .isEqualTo(1.0);
        assertThat(results.path("message").asText()).as("the message, the study uploaded as study.zip").doesNotContain("no evidence");
    }

    @Test
    @DisplayName("a study.zip with a ../ entry or a link is not gradable, says why, costs no attempt, and changes nothing")
    void anUnsafeStudyArchiveIsRefused() throws Exception {
        Map<String, List<StudyZips.Entry>> archives = Map.of(
                "whose .. leads out", List.of(StudyZips.Entry.file("../../escaped/late-write/evidence.json", "{}")),
                "a symbolic link", List.of(new StudyZips.Entry("late-write/evidence.json",
                        KitLocations.solutions().resolve("study/late-write/evidence.json").toString().getBytes(), StudyZips.LINK)));
        for (Map.Entry<String, List<StudyZips.Entry>> archive : archives.entrySet()) {
            Path root = gradeRoot(KitLocations.solutions(), "unsafe-" + archive.getValue().get(0).mode());
            StudyZips.write(root.resolve("student").resolve(StudentFiles.STUDY_ARCHIVE), archive.getValue());
            Map<Path, String> before = listing(root);

            CommandRun run = entrypoint(root, Map.of());

            JsonNode results = checkedResults(root, run);
            assertThat(results.path("gradable").asBoolean(true)).as("gradable, with a study.zip holding an entry %s", archive.getKey())
                    .isFalse();
            assertThat(results.path("format_errors").toString()).as("format_errors").contains("study.zip holds").contains(archive.getKey());
            Map<Path, String> after = listing(root);
            after.remove(Path.of("results/results.json"));
            after.remove(Path.of("results"));
            assertThat(after).as("the grading root after the refusal, but for results.json").isEqualTo(before);
            assertThat(dir.resolve("escaped")).as("where the .. entry pointed").doesNotExist();
        }
    }

    @Test
    @DisplayName("a wrong entry scores below 1 and its tests say which property it broke")
    void aWrongEntryScoresBelowOne() throws Exception {
        Path entry = KitLocations.catalog().resolve("wrong/sink-deferred-transaction");
        Path root = gradeRoot(CatalogSubmissions.assemble(entry, dir.resolve("wrong")), "wrong");

        CommandRun run = entrypoint(root, Map.of());

        JsonNode results = checkedResults(root, run);
        assertThat(results.path("score").asDouble(-1)).as("the wrong entry's score").isLessThan(1.0);
        for (String tag : CatalogSubmissions.expectedTags(entry)) {
            assertThat(tests(results)).as("a test of %s that earned less than its points", tag).anyMatch(test ->
                    test.path("description").asText().contains(tag) && test.path("points").asInt() < test.path("max_points").asInt());
        }
    }

    @Test
    @DisplayName("a submission not fit to grade is gradable: false with its format errors, which charges no attempt, and exits 0")
    void anUnfitSubmissionIsNotGradable() throws Exception {
        Path unfit = UnfitSubmissions.build(KitLocations.catalog().resolve("unfit/latin1-source"), dir.resolve("unfit"));
        Path root = gradeRoot(unfit, "unfit");

        CommandRun run = entrypoint(root, Map.of());

        JsonNode results = checkedResults(root, run);
        assertThat(results.path("gradable").asBoolean(true)).as("gradable").isFalse();
        assertThat(results.path("format_errors").toString()).as("format_errors").contains("Quorum.java");
    }

    @Test
    @DisplayName("a submission with a file that does not compile: gradable, that file graded as the kit's stub, and the"
            + " compiler's message in the one PrairieLearn shows")
    void aFileThatDoesNotCompileIsGradedWithTheCompilersMessage() throws Exception {
        Path root = gradeRoot(TemplateSubmissions.uncompilable(dir.resolve("uncompilable")), "uncompilable");

        JsonNode results = checkedResults(root, entrypoint(root, Map.of()));

        assertThat(results.path("gradable").asBoolean(false)).as("gradable").isTrue();
        assertThat(results.path("score").asDouble(-1)).as("the score of a submission whose Quorum.java does not compile")
                .isPositive().isLessThan(1);
        assertThat(results.path("message").asText()).as("the message").contains(TemplateSubmissions.SET_ASIDE)
                .contains(TemplateSubmissions.COMPILER_SAYS);
    }

    @Test
    @DisplayName("an empty upload is gradable: false, saying the folder is empty, which charges no attempt")
    void anEmptyUploadIsNotGradable() throws Exception {
        Path root = Files.createDirectories(dir.resolve("grade-empty"));
        TemplateSubmissions.empty(root.resolve("student"));

        JsonNode results = checkedResults(root, entrypoint(root, Map.of()));

        assertThat(results.path("gradable").asBoolean(true)).as("gradable").isFalse();
        assertThat(results.path("format_errors").toString()).as("format_errors")
                .contains(CatalogSubmissions.expectedReport(KitLocations.catalog().resolve("unfit/empty")).get(0));
    }

    @Test
    @DisplayName("a submission that exits the JVM in a test, and one whose tests throw 300,000 characters: each test's message"
            + " says what happened, within PrairieLearn's limits")
    void hostileSubmissionsAreReportedWithinTheLimits() throws Exception {
        for (String name : List.of("hostile/exit-in-method", "hostile/floods-messages")) {
            Path entry = KitLocations.catalog().resolve(name);
            Path root = gradeRoot(CatalogSubmissions.assemble(entry, dir.resolve(entry.getFileName())), entry.getFileName().toString());

            JsonNode results = checkedResults(root, entrypoint(root, Map.of()));

            assertThat(results.path("score").asDouble(-1)).as("the score of %s", name).isGreaterThan(0.0).isLessThan(1.0);
            assertThat(tests(results)).as("every test's message of %s", name).allSatisfy(test ->
                    assertThat(test.path("message").asText().length()).as("the length of %s's message", test.path("name"))
                            .isLessThanOrEqualTo(ReportText.TEST_OUTPUT_LIMIT));
            assertThat(tests(results).stream().filter(test -> test.path("description").asText().contains("quorum")).toList())
                    .as("the quorum tests of %s", name).isNotEmpty().allSatisfy(test ->
                            assertThat(test.path("message").asText()).as("%s's message", test.path("name"))
                                    .contains(CatalogSubmissions.expectedReport(entry)));
        }
    }

    @Test
    @DisplayName("when etcd does not answer, the grader's failure exits non-zero, which PrairieLearn shows as a failed job, not a score")
    void aGraderFailureExitsNonZero() throws Exception {
        Path root = gradeRoot(KitLocations.solutions(), "no-etcd");
        int closed = LoopbackPorts.reserve();

        CommandRun run = entrypoint(root, Map.of("ETCD_ENDPOINTS", "http://127.0.0.1:" + closed));

        assertThat(run.exit()).as("exit code of the entrypoint with etcd unreachable; output:%n%s", run.output()).isNotZero();
        assertThat(run.output()).as("what it printed").contains("grading could not run");
    }

    @Test
    @DisplayName("the question asks for exactly the student-owned files, and gives the job more time than the grader's own limit")
    void theQuestionAsksForTheStudentFilesAndTimeEnough() throws Exception {
        Path template = TemplatesTests.templatesDir().resolve("prairielearn");
        String html = Files.readString(template.resolve("question.html"));
        JsonNode options = JSON.readTree(template.resolve("info.json").toFile()).path("externalGradingOptions");
        java.util.regex.Matcher required = java.util.regex.Pattern.compile(" file-names=\"([^\"]*)\"").matcher(html);
        assertThat(required.find()).as("a file-names attribute in question.html").isTrue();
        List<String> expected = new ArrayList<>(StudentFiles.PATHS.stream().map(path -> Path.of(path).getFileName().toString()).toList());
        expected.add("ANSWERS.md");

        assertThat(List.of(required.group(1).split(",\\s*"))).as("the files question.html asks for").containsExactlyInAnyOrderElementsOf(expected);
        assertThat(html).as("question.html").contains("optional-file-names=\"evidence.json, study.zip\"")
                .contains("./kit study --case all").contains("study.zip").contains("<pl-external-grader-results>");
        assertThat(options.path("enableNetworking").asBoolean(true)).as("info.json's enableNetworking").isFalse();
        assertThat(options.path("timeout").asInt()).as("info.json's timeout, against the entrypoint's own limit (100 s) and"
                + " PrairieLearn's maximum (600 s)").isGreaterThan(100).isLessThanOrEqualTo(600);
        assertThat(options.path("entrypoint").asText()).as("the entrypoint info.json names")
                .isEqualTo("/kit/grader/templates/prairielearn/entrypoint");
    }

    @Test
    @DisplayName("the image, built from ./kit package prairielearn on a local base and run with --network none --cpus 0.9"
            + " --memory 2g, gives the solutions full marks and a wrong entry less")
    void theImageGradesWithoutANetwork() throws Exception {
        String base = System.getenv().getOrDefault("KIT_PRAIRIELEARN_BASE", "local/debian:bookworm");
        String why = Docker.cannotBuildOn(base);
        Assumptions.assumeTrue(why == null, () -> "skipped: " + why);

        Path upload = dir.resolve("upload");
        CommandRun packaged = CommandRun.of(List.of(KitLocations.root().resolve("kit").toString(), "package", "prairielearn",
                "--out", upload.toString()), Map.of(), KitLocations.root(), dir.resolve("package.log"), LIMIT);
        assertThat(packaged.exit()).as("./kit package prairielearn: %s", packaged.output()).isZero();
        String image = "fencing-kit-grader:test-" + UUID.randomUUID().toString().substring(0, 8);
        String checked = image + "-build-stage";
        String context = upload.resolve("grading-image").toString();
        long start = System.nanoTime();
        try {
            // The build stage first, uncached and tagged: a layer cached by an earlier build of the same files would skip the
            // check this test is about, and an untagged build stage would outlive the test as a dangling image.
            CommandRun stage = CommandRun.of(List.of("docker", "build", "--no-cache", "--network", "host", "--build-arg", "BASE=" + base,
                    "--target", "build", "-t", checked, context), Map.of(), dir, dir.resolve("docker-build-stage.log"), BUILD_LIMIT);
            assertThat(stage.exit()).as("docker build of the grading image's build stage; output:%n%s", stage.output()).isZero();
            assertThat(stage.output()).as("the build stage's image check").contains("the reference solutions get full marks in this image");
            CommandRun build = CommandRun.of(List.of("docker", "build", "--network", "host", "--build-arg", "BASE=" + base, "-t", image,
                    context), Map.of(), dir, dir.resolve("docker-build.log"), BUILD_LIMIT);
            double buildSeconds = (System.nanoTime() - start) / 1e9;
            assertThat(build.exit()).as("docker build of the grading image; output:%n%s", build.output()).isZero();
            assertThat(Docker.answers(List.of("run", "--rm", "--network", "none", "--entrypoint", "sh", image, "-c",
                    "test ! -e /kit/solutions/src && test ! -e /kit/grader/tests/catalog"))).as("the published image holds no"
                    + " reference solutions and no catalog").isTrue();

            Path solutionsRoot = gradeRoot(KitLocations.solutions(), "image-solutions");
            StudyZips.of(KitLocations.solutions().resolve(StudentFiles.STUDY), solutionsRoot.resolve("student/" + StudentFiles.STUDY_ARCHIVE));
            JsonNode solutions = runImage(image, solutionsRoot, "solutions");
            assertThat(solutions.path("score").asDouble(-1)).as("the solutions' score in the image; message: %s",
                    solutions.path("message").asText()).isEqualTo(1.0);
            assertThat(solutions.path("message").asText()).as("what the image's sandbox could do, in the report")
                    .contains("the tests ran as nobody").doesNotContain("no evidence");
            Path entry = KitLocations.catalog().resolve("wrong/etcd-key-not-on-lease");
            JsonNode wrong = runImage(image, gradeRoot(CatalogSubmissions.assemble(entry, dir.resolve("image-wrong")), "image-wrong"),
                    "a wrong entry");
            assertThat(wrong.path("score").asDouble(-1)).as("the wrong entry's score in the image").isLessThan(1.0);
            Uploads.record(String.format(Locale.ROOT, "prairielearn: docker build of the grading image %.0f s", buildSeconds));
        } finally {
            Docker.answers(List.of("image", "rm", "-f", image, checked));
        }
    }

    private JsonNode runImage(String image, Path root, String what) throws Exception {
        Files.setPosixFilePermissions(root, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        long start = System.nanoTime();
        CommandRun run = CommandRun.of(List.of("docker", "run", "--rm", "--network", "none", "--cpus", "0.9", "--memory", "2g",
                "-v", root + ":/grade", image), Map.of(), dir, dir.resolve("docker-run-" + root.getFileName() + ".log"), LIMIT);
        double seconds = (System.nanoTime() - start) / 1e9;
        JsonNode results = checkedResults(root, run);
        Uploads.record(String.format(Locale.ROOT, "prairielearn: the image on %s, --network none --cpus 0.9 --memory 2g: %.1f s"
                + " from docker run to its end", what, seconds));
        return results;
    }

    /** Makes a {@code /grade}-shaped root with the submission's student files uploaded flat, and no results folder. */
    private Path gradeRoot(Path submission, String name) throws Exception {
        Path root = Files.createDirectories(dir.resolve("grade-" + name));
        Uploads.looseFiles(submission, root.resolve("student"));
        return root;
    }

    /** Returns every file and folder under {@code root}, relative to it, with a file's bytes as text. */
    private static Map<Path, String> listing(Path root) throws Exception {
        Map<Path, String> files = new java.util.TreeMap<>();
        try (java.util.stream.Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.filter(path -> !path.equals(root)).toList()) {
                files.put(root.relativize(path), Files.isRegularFile(path)
                        ? java.util.HexFormat.of().formatHex(Files.readAllBytes(path)) : "folder");
            }
        }
        return files;
    }

    private CommandRun entrypoint(Path root, Map<String, String> more) throws Exception {
        Map<String, String> environment = new HashMap<>(Map.of("GRADE_ROOT", root.toString(), "KIT_DIR", KitLocations.root().toString()));
        environment.putAll(more);
        return CommandRun.of(List.of(TemplatesTests.templatesDir().resolve("prairielearn/entrypoint").toString()), environment, root,
                dir.resolve("entrypoint-" + root.getFileName() + ".log"), LIMIT);
    }

    private JsonNode checkedResults(Path root, CommandRun run) throws Exception {
        assertThat(run.exit()).as("exit code of the entrypoint; output:%n%s", run.output()).isZero();
        Path file = root.resolve("results/results.json");
        assertThat(PlatformSchemas.PRAIRIELEARN.problems(file)).as("what PrairieLearn's schema finds wrong with %s", file).isEmpty();
        assertThat(Files.size(file)).as("the size of %s, against PrairieLearn's 1 MB limit", file).isLessThan(ONE_MB);
        JsonNode results = JSON.readTree(file.toFile());
        if (results.path("gradable").asBoolean(true)) {
            int points = tests(results).stream().mapToInt(test -> test.path("points").asInt()).sum();
            int max = tests(results).stream().mapToInt(test -> test.path("max_points").asInt()).sum();
            assertThat(results.path("score").asDouble()).as("score, the share of the points (%d of %d)", points, max)
                    .isCloseTo((double) points / max, org.assertj.core.data.Offset.offset(1e-9));
        }
        return results;
    }

    private static List<JsonNode> tests(JsonNode results) {
        return StreamSupport.stream(results.path("tests").spliterator(), false).toList();
    }
}
