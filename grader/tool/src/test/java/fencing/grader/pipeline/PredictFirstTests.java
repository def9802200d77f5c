package fencing.grader.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The predict-first note: read from a real git history, for the instructor only. */
class PredictFirstTests {

    @TempDir
    Path dir;

    private int repositories;

    @Test
    @DisplayName("predictions committed before Resource was changed are noted as coming first")
    void predictionsFirstIsNoted() throws Exception {
        Path repo = handoutRepository();
        commit(repo, PredictFirst.PREDICTIONS, "my predictions");
        commit(repo, PredictFirst.RESOURCE, "my resource");

        assertThat(PredictFirst.note(repo)).as("the note for predictions, then resource").get().asString()
                .contains("Predictions.java was committed").contains("before Resource.java was first changed");
    }

    @Test
    @DisplayName("Resource changed before the predictions is noted the other way round")
    void resourceFirstIsNoted() throws Exception {
        Path repo = handoutRepository();
        commit(repo, PredictFirst.RESOURCE, "my resource");
        commit(repo, PredictFirst.PREDICTIONS, "my predictions");

        assertThat(PredictFirst.note(repo)).as("the note for resource, then predictions").get().asString()
                .contains("Resource.java was first changed").contains("before Predictions.java was committed");
    }

    @Test
    @DisplayName("both files first changed in one commit, or predictions never committed, are said so")
    void sameCommitAndNoPredictionsAreNoted() throws Exception {
        Path together = handoutRepository();
        Files.writeString(together.resolve(PredictFirst.PREDICTIONS), "both");
        commit(together, PredictFirst.RESOURCE, "both");
        Path never = Files.createDirectories(dir.resolve("never"));
        init(never);
        commit(never, PredictFirst.RESOURCE, "my resource");

        assertThat(PredictFirst.note(together)).as("the note for one commit changing both").get().asString()
                .contains("first changed in the same commit");
        assertThat(PredictFirst.note(never)).as("the note for a history without predictions").get().asString()
                .contains("no commit after the first one changes Predictions.java");
    }

    @Test
    @DisplayName("a submission that is not a git repository gets no note")
    void plainFolderGetsNoNote() throws Exception {
        Path plain = Files.createDirectories(dir.resolve("plain"));

        assertThat(PredictFirst.note(plain)).as("the note for a folder without .git").isEmpty();
    }

    /** A repository whose first commit holds both stubs, as the handout's does. */
    private Path handoutRepository() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("repo-" + ++repositories));
        init(repo);
        Files.createDirectories(repo.resolve(PredictFirst.PREDICTIONS).getParent());
        Files.writeString(repo.resolve(PredictFirst.PREDICTIONS), "stub");
        commit(repo, PredictFirst.RESOURCE, "stub");
        return repo;
    }

    private static void init(Path repo) throws Exception {
        git(repo, "init", "-q");
    }

    private static void commit(Path repo, String path, String content) throws Exception {
        Path file = repo.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        git(repo, "add", "-A");
        git(repo, "-c", "user.name=Student", "-c", "user.email=student@example.org", "commit", "-q", "-m", "work on " + path);
    }

    private static void git(Path repo, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("git %s finished", List.of(arguments)).isTrue();
            assertThat(process.exitValue()).as("exit code of git %s: %s", List.of(arguments),
                    new String(process.getInputStream().readAllBytes())).isZero();
        } finally {
            process.destroyForcibly();
        }
    }
}
