package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.grader.report.ArtemisExercise;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The zip {@code ./kit package artemis} writes, against what Artemis's import from file requires of it: the web client's
 * (exactly one JSON file among the zip's entries, of the exercise's type) and the server's (after unpacking every zip in
 * it, exactly one folder for each of the three repositories and one {@code Exercise-Details*.json}), and against what
 * each repository must hold.
 */
// Beside the other classes: it packages into a folder of its own, and builds nothing in the kit's tree that they read.
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock("artemis-package")
class ArtemisPackageTests {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NAME = ArtemisExercise.SHORT_NAME;
    private static final String DETAILS = "Exercise-Details-" + NAME + ".json";
    private static final String STATEMENT = "Problem-Statement-" + NAME + ".md";
    private static final Pattern TASK = Pattern.compile("\\[task]\\[([^\\[\\]]+)]\\(([^()]+)\\)");

    @Test
    @DisplayName("the web client's check: one JSON file among the zip's entries, Exercise-Details of a programming exercise,"
            + " beside the problem statement and the three repositories, each a zip")
    void theWebClientFindsOneExerciseDetails() throws Exception {
        try (ZipFile zip = new ZipFile(ArtemisPackage.folder().resolve(ArtemisPackage.ZIP).toFile())) {
            List<String> entries = Collections.list(zip.entries()).stream().map(entry -> entry.getName()).sorted().toList();

            assertThat(entries).as("the zip's entries").containsExactly(DETAILS, NAME + "-exercise.zip", NAME + "-solution.zip",
                    NAME + "-tests.zip", STATEMENT);
            JsonNode details = JSON.readTree(zip.getInputStream(zip.getEntry(DETAILS)));
            assertThat(details.path("type").asText()).as("the exercise's type").isEqualTo("programming");
            String statement = new String(zip.getInputStream(zip.getEntry(STATEMENT)).readAllBytes(),
                    StandardCharsets.UTF_8);
            assertThat(details.path("problemStatement").asText()).as("the problem statement in Exercise-Details").isEqualTo(statement);
        }
    }

    @Test
    @DisplayName("the server's check, with every zip unpacked: one folder each ending -exercise, -solution and -tests, one"
            + " Exercise-Details*.json, and no code or build file in the repositories that holds the short name Artemis replaces")
    void theServerFindsEachRepositoryOnce() throws Exception {
        Path unpacked = ArtemisPackage.unpacked();
        List<Path> folders;
        List<Path> files;
        try (Stream<Path> all = Files.walk(unpacked)) {
            List<Path> paths = all.toList();
            folders = paths.stream().filter(Files::isDirectory).toList();
            files = paths.stream().filter(Files::isRegularFile).toList();
        }

        for (String suffix : List.of("exercise", "solution", "tests")) {
            assertThat(folders).as("folders whose name ends with -%s", suffix)
                    .filteredOn(folder -> folder.getFileName().toString().endsWith("-" + suffix)).hasSize(1);
        }
        assertThat(files).as("Exercise-Details*.json files").filteredOn(file -> file.getFileName().toString().startsWith("Exercise-Details")
                && file.toString().endsWith(".json")).hasSize(1);
        // A README that names the short name is changed harmlessly; code or a build file would break.
        assertThat(files).as("repository files that hold the short name %s, which Artemis replaces on import", ArtemisExercise.SHORT_NAME)
                .filteredOn(file -> !file.getParent().equals(unpacked) && !file.getFileName().toString().endsWith(".md"))
                .noneMatch(file -> holds(file, ArtemisExercise.SHORT_NAME));
    }

    @Test
    @DisplayName("the repositories: the handout as -exercise, with the solutions' files as -solution, and the kit without"
            + " solutions or catalog, with the build image's Dockerfile and the build script, as -tests")
    void eachRepositoryHoldsItsPart() throws Exception {
        Path exercise = ArtemisPackage.repository("exercise");
        Path solution = ArtemisPackage.repository("solution");
        Path tests = ArtemisPackage.repository("tests");
        String resource = "src/main/java/fencing/basics/Resource.java";

        assertThat(exercise.resolve("README.md")).as("the handout's README in -exercise").exists();
        assertThat(exercise.resolve("grader")).as("the grader in -exercise").doesNotExist();
        assertThat(Files.readString(exercise.resolve(resource))).as("-exercise's Resource.java, the stub")
                .isNotEqualTo(Files.readString(KitLocations.solutions().resolve(resource)));
        assertThat(Files.readString(solution.resolve(resource))).as("-solution's Resource.java")
                .isEqualTo(Files.readString(KitLocations.solutions().resolve(resource)));
        assertThat(solution.resolve("ANSWERS.md")).as("-solution's ANSWERS.md")
                .hasSameTextualContentAs(KitLocations.solutions().resolve("ANSWERS.md"));
        assertThat(tests.resolve("grader/templates/artemis/Dockerfile")).as("the build image's Dockerfile in -tests").exists();
        assertThat(tests.resolve("grader/grading-policy.yml")).as("the grading policy in -tests").exists();
        assertThat(tests.resolve("grader/tests/src")).as("the hidden tests in -tests").isDirectory();
        assertThat(tests.resolve("solutions/src")).as("the solutions' sources in -tests").doesNotExist();
        assertThat(tests.resolve("grader/tests/catalog")).as("the catalog in -tests").doesNotExist();
        JsonNode details = JSON.readTree(ArtemisPackage.unpacked().resolve(DETAILS).toFile());
        assertThat(details.path("buildConfig").path("buildScript").asText()).as("the build script in Exercise-Details")
                .isEqualTo(Files.readString(tests.resolve("grader/templates/artemis/build.sh")));
    }

    @Test
    @DisplayName("test-settings.md, beside the zip, gives every test a task of the problem statement links, and the total")
    void testSettingsListEveryLinkedTest() throws Exception {
        String settings = Files.readString(ArtemisPackage.folder().resolve("test-settings.md"));
        String statement = Files.readString(ArtemisPackage.unpacked().resolve(STATEMENT));
        JsonNode details = JSON.readTree(ArtemisPackage.unpacked().resolve(DETAILS).toFile());

        Matcher task = TASK.matcher(statement);
        int linked = 0;
        while (task.find()) {
            for (String test : task.group(2).split(",")) {
                assertThat(settings).as("test-settings.md, for the test %s of the task %s", test, task.group(1)).contains("| " + test + " | ");
                linked++;
            }
        }
        assertThat(linked).as("the tests the tasks link").isPositive();
        assertThat(settings).as("test-settings.md").contains("set the exercise's points to " + details.path("maxPoints").asInt() + ".");
    }

    /** Whether {@code file}'s bytes hold {@code text}, as Artemis's replacement of the short name finds it. */
    private static boolean holds(Path file, String text) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
