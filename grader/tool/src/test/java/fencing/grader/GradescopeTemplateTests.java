package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.support.Etcd;
import fencing.support.FileTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gradescope's template for real: {@code run_autograder} over a temporary {@code /autograder}-shaped root, its
 * {@code results.json} checked against a schema written from Gradescope's specification, and once under Gradescope's
 * default share of a machine (half a CPU, 768 MB) where this machine can set it.
 */
@Tag("etcd")
class GradescopeTemplateTests {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration LIMIT = Duration.ofMinutes(10);
    private static final boolean REQUIRED = "true".equalsIgnoreCase(System.getenv("KIT_REQUIRE_INVARIANCE"));

    @TempDir
    Path dir;

    @Test
    @DisplayName("loose files uploaded to Gradescope: the solutions get full marks, in a results.json Gradescope reads")
    void theSolutionsUploadedAsLooseFilesGetFullMarks() throws Exception {
        Path root = autograderRoot();
        Uploads.looseFiles(KitLocations.solutions(), root.resolve("submission"));

        CommandRun run = runAutograder(root, sharedEtcd(), List.of());

        JsonNode results = checkedResults(root, run);
        assertThat(results.path("score").asInt(-1)).as("the solutions' score; output: %s", results.path("output").asText())
                .isEqualTo(results.path("max_score").asInt()).isPositive();
    }

    @Test
    @DisplayName("a repository uploaded to Gradescope: the untouched stubs get 0, in a results.json Gradescope reads")
    void theStubsUploadedAsARepositoryGetZero() throws Exception {
        Path root = autograderRoot();
        Path repository = root.resolve("submission/fencing-student-repo");
        FileTrees.copy(KitLocations.exercises().resolve("src/main"), repository.resolve("src/main"));
        Files.copy(KitLocations.exercises().resolve("ANSWERS.md"), repository.resolve("ANSWERS.md"));

        CommandRun run = runAutograder(root, sharedEtcd(), List.of());

        JsonNode results = checkedResults(root, run);
        assertThat(results.path("max_score").asInt()).as("the maximum score").isPositive();
        assertThat(results.path("score").asInt(-1)).as("the stubs' score").isZero();
    }

    @Test
    @DisplayName("under Gradescope's default share (half a CPU, 768 MB), with etcd inside the limits, the solutions still get full marks")
    void theSolutionsGetFullMarksUnderGradescopesDefaultLimits() throws Exception {
        Optional<String> unavailable = ResourceLimits.unavailable(true);
        if (unavailable.isPresent() && REQUIRED) {
            throw new AssertionError("KIT_REQUIRE_INVARIANCE=true, but " + unavailable.get());
        }
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> "skipped: " + unavailable.orElse(""));
        Path root = autograderRoot();
        Uploads.looseFiles(KitLocations.solutions(), root.resolve("submission"));

        long start = System.nanoTime();
        CommandRun run;
        long peak;
        try (ResourceLimits limits = ResourceLimits.of(0.5, 768L << 20)) {
            // etcd is the grader's own here, started inside the limits as in Gradescope's container.
            run = runAutograder(root, Map.of(), limits.prefix());
            peak = limits.peakMemoryBytes().orElse(-1);
        }
        double seconds = (System.nanoTime() - start) / 1e9;

        JsonNode results = checkedResults(root, run);
        assertThat(results.path("score").asInt(-1)).as("the solutions' score under half a CPU and 768 MB; output: %s",
                results.path("output").asText()).isEqualTo(results.path("max_score").asInt());
        Uploads.record(String.format(Locale.ROOT, "gradescope: run_autograder on the solutions under 0.5 CPU and 768 MB:"
                + " %.1f s, peak memory %d MiB", seconds, peak >> 20));
    }

    private Path autograderRoot() throws Exception {
        Path root = Files.createDirectories(dir.resolve("autograder"));
        Files.createDirectories(root.resolve("submission"));
        return root;
    }

    private static Map<String, String> sharedEtcd() {
        return Map.of("ETCD_ENDPOINTS", Etcd.shared().endpoints(), "ETCD_KEY_PREFIX", "template-checks/" + UUID.randomUUID());
    }

    private CommandRun runAutograder(Path root, Map<String, String> etcd, List<String> prefix) throws Exception {
        Map<String, String> environment = new java.util.HashMap<>(etcd);
        environment.put("AUTOGRADER_ROOT", root.toString());
        environment.put("KIT_DIR", KitLocations.root().toString());
        List<String> command = new java.util.ArrayList<>(prefix);
        command.addAll(List.of("bash", TemplatesTests.templatesDir().resolve("gradescope/run_autograder").toString()));
        return CommandRun.of(command, environment, root, dir.resolve("run_autograder.log"), LIMIT);
    }

    private JsonNode checkedResults(Path root, CommandRun run) throws Exception {
        assertThat(run.exit()).as("exit code of run_autograder; output:%n%s", run.output()).isZero();
        Path results = root.resolve("results/results.json");
        assertThat(PlatformSchemas.GRADESCOPE.problems(results)).as("what Gradescope's schema finds wrong with %s", results).isEmpty();
        return JSON.readTree(results.toFile());
    }
}
