package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.support.Etcd;
import fencing.support.FileTrees;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The instructor's templates parse: the workflows have the shape of GitHub Actions workflows, the scripts are valid
 * bash, the JSON is JSON. Each platform's template grades for real in a class of its own.
 */
class TemplatesTests {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    @DisplayName("every JSON template parses")
    void jsonTemplatesParse() throws IOException {
        List<Path> json = templates("json");

        assertThat(json).as("JSON templates").isNotEmpty();
        for (Path file : json) {
            JsonNode root = JSON.readTree(file.toFile());
            assertThat(root).as("%s parsed", file).isNotNull();
        }
    }

    @Test
    @DisplayName("every workflow template has the shape of a GitHub Actions workflow")
    void workflowTemplatesHaveTheirShape() throws IOException {
        List<Path> workflows = templates("yml");

        assertThat(workflows).as("workflow templates").hasSizeGreaterThanOrEqualTo(2);
        for (Path file : workflows) {
            assertThat(WorkflowShape.problems(Files.readString(file))).as("what is wrong with %s", file).isEmpty();
        }
    }

    @Test
    @DisplayName("the workflow check finds a tab, a stray indent, a job without steps, an idle step and an unclosed expression")
    void workflowCheckFindsMistakes() {
        String valid = "name: Valid\non:\n  push:\njobs:\n  grade:\n    runs-on: ubuntu-latest\n    timeout-minutes: 5\n"
                + "    steps:\n      - uses: actions/checkout@v4\n      - name: Grade\n        run: echo ${{ github.sha }}\n";

        assertThat(WorkflowShape.problems(valid)).as("problems found in a valid workflow").isEmpty();
        assertThat(WorkflowShape.problems(valid.replace("    runs-on", "\truns-on")))
                .as("problems found in a workflow indented with a tab").singleElement().asString()
                .contains("line 6").containsIgnoringCase("tab");
        assertThat(WorkflowShape.problems(valid.replace("    steps:", "      extra: 1\n    steps:")))
                .as("problems found in a workflow with a line indented under a value").singleElement().asString()
                .contains("line 8").contains("not YAML");
        assertThat(WorkflowShape.problems(valid.substring(0, valid.indexOf("    steps:"))))
                .as("problems found in a workflow whose job has no steps").containsExactly("job 'grade' has no 'steps:'");
        assertThat(WorkflowShape.problems(valid.replace("        run: echo", "        shell: echo")))
                .as("problems found in a workflow with a step that does nothing")
                .containsExactly("job 'grade', step 2 neither runs a command nor uses an action");
        assertThat(WorkflowShape.problems(valid.replace("github.sha }}", "github.sha")))
                .as("problems found in a workflow with an unclosed expression").singleElement().asString()
                .contains("jobs.grade.steps[1].run").contains("not closed");
        assertThat(WorkflowShape.problems(valid.replace("name: Valid\n", "")))
                .as("problems found in a workflow without a name").containsExactly("no top-level 'name:'");
    }

    @Test
    @DisplayName("the instructor's workflow grades with sudo ./kit grade, etcd in Docker, and appends summary.md and staff-notes.md"
            + " to the job summary")
    void instructorWorkflowGradesAndSummarizes() throws IOException {
        JsonNode workflow = WorkflowShape.read(Files.readString(templatesDir().resolve("github-actions/grade-submission.yml")));
        JsonNode job = workflow.path("jobs").path("grade");
        List<JsonNode> steps = WorkflowShape.steps(workflow);

        assertThat(job.path("env").path("KIT_ETCD").asText()).as("the grade job's KIT_ETCD").isEqualTo("container");
        assertThat(steps).as("the grade job's steps")
                // As root, so that the submission's tests run as nobody, without a network; KIT_ETCD must survive sudo.
                .anySatisfy(step -> assertThat(step.path("run").asText()).as("a step's command")
                        .startsWith("sudo --preserve-env=").contains("KIT_ETCD").contains(" ./kit grade "))
                .anySatisfy(step -> assertThat(step.path("with").path("java-version").asText()).as("the Java version set up")
                        .isEqualTo("17"))
                .anySatisfy(step -> assertThat(step.path("run").asText()).as("a step's command")
                        .containsPattern("cat [^\\n]*summary\\.md [^\\n]*staff-notes\\.md >> \"\\$GITHUB_STEP_SUMMARY\""));
    }

    @Test
    @DisplayName("the class workflow grades one shard per matrix job as root and merges every shard in a final job")
    void classWorkflowShardsAndMerges() throws IOException {
        JsonNode workflow = WorkflowShape.read(Files.readString(templatesDir().resolve("github-actions/grade-class.yml")));
        JsonNode grade = workflow.path("jobs").path("grade");
        JsonNode merge = workflow.path("jobs").path("merge");
        int shards = workflow.path("env").path("SHARDS").asInt();

        assertThat(grade.path("strategy").path("matrix").path("shard")).as("the matrix's shards, against SHARDS")
                .hasSize(shards).allSatisfy(shard -> assertThat(shard.asInt()).isBetween(1, shards));
        assertThat(grade.path("strategy").path("fail-fast").asBoolean(true)).as("fail-fast of the grade jobs").isFalse();
        assertThat(grade.path("steps")).as("the grade job's steps").anySatisfy(step -> assertThat(step.path("run").asText())
                .as("a step's command").startsWith("sudo ").contains("./kit grade --batch")
                .contains("--shard \"${{ matrix.shard }}/$SHARDS\""));
        assertThat(merge.path("needs").asText()).as("what the merge job waits for").isEqualTo("grade");
        assertThat(merge.path("if").asText()).as("when the merge job runs: also after a failed shard").isEqualTo("always()");
        assertThat(merge.path("steps")).as("the merge job's steps")
                .anySatisfy(step -> assertThat(step.path("run").asText()).as("a step's command")
                        .startsWith("./kit gradebook merge ").contains("--out"))
                .anySatisfy(step -> assertThat(step.path("with").path("pattern").asText()).as("the artifacts fetched")
                        .isEqualTo("shard-*"));
    }

    @Test
    @DisplayName("the shell templates are valid bash")
    void shellTemplatesParse() throws Exception {
        List<Path> scripts = new ArrayList<>(templates("sh"));
        scripts.add(templatesDir().resolve("gradescope/run_autograder"));
        scripts.add(templatesDir().resolve("prairielearn/entrypoint"));
        scripts.add(templatesDir().resolve("prairielearn/check-image"));
        scripts.add(KitLocations.root().resolve("kit"));
        for (Path script : scripts) {
            CommandRun check = CommandRun.of(List.of("bash", "-n", script.toString()), Map.of(), dir, dir.resolve("bash-n.log"),
                    Duration.ofMinutes(1));
            assertThat(check.exit()).as("bash -n %s: %s", script, check.output()).isZero();
        }
    }

    @Test
    @DisplayName("layout.sh places a loose file whose package line repeats past what a pipe holds, by its package, and a repository by its folder")
    void layoutPlacesLooseFilesWhateverTheyPrint() throws Exception {
        Path loose = Files.createDirectories(dir.resolve("loose"));
        // 440 KB of package lines: a first-line pipeline that ends early would end with SIGPIPE under pipefail.
        Files.writeString(loose.resolve("Quorum.java"), "package fencing.basics;\n".repeat(20_000), StandardCharsets.UTF_8);
        Path scratch = Files.createDirectories(dir.resolve("scratch"));
        CommandRun laidOut = CommandRun.of(List.of("bash", templatesDir().resolve("layout.sh").toString(), loose.toString(),
                scratch.toString()), Map.of(), dir, dir.resolve("layout.log"), Duration.ofMinutes(1));

        assertThat(laidOut.exit()).as("exit code of layout.sh on a loose Quorum.java of 20,000 package lines; it printed:%n%s",
                laidOut.output()).isZero();
        assertThat(scratch.resolve("submission/src/main/java/fencing/basics/Quorum.java"))
                .as("the loose Quorum.java, placed by the package it declares").isRegularFile();

        Path repository = Files.createDirectories(dir.resolve("upload/repo/src/main/java/fencing"));
        CommandRun found = CommandRun.of(List.of("bash", templatesDir().resolve("layout.sh").toString(),
                dir.resolve("upload").toString(), Files.createDirectories(dir.resolve("scratch-2")).toString()), Map.of(), dir,
                dir.resolve("layout-2.log"), Duration.ofMinutes(1));
        assertThat(found.output().strip()).as("the folder layout.sh prints for an upload holding a repository (exit %d)",
                found.exit()).endsWith(repository.getParent().getParent().getParent().getParent().toString());
    }

    static Path templatesDir() {
        return KitLocations.root().resolve("grader/templates");
    }

    private static List<Path> templates(String extension) throws IOException {
        try (Stream<Path> files = Files.walk(templatesDir())) {
            return files.filter(Files::isRegularFile).filter(file -> file.getFileName().toString().endsWith("." + extension))
                    .sorted().toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
