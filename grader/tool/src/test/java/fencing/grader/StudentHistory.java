package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A student's git history in a checkout, as the grader's predict-first note for the instructor reads it. */
final class StudentHistory {

    private static final Duration LIMIT = Duration.ofMinutes(1);

    private StudentHistory() {
    }

    /**
     * Makes {@code checkout} a git repository as a student's is: the handout's commit, then a commit of the predictions
     * alone, so that the grader has a predict-first note for the instructor to keep out of the student's view.
     *
     * @param logs where each git command's output is kept
     */
    static void commitPredictionsFirst(Path checkout, Path logs) throws Exception {
        Path predictions = checkout.resolve(StudentFiles.SOURCE_ROOT).resolve("fencing/basics/Predictions.java");
        for (List<String> step : List.of(List.of("init", "-q"), List.of("add", "-A"), List.of("commit", "-q", "-m", "handout"))) {
            git(checkout, step, logs);
        }
        Files.writeString(predictions, Files.readString(predictions) + "\n// Predicted before running the code.\n");
        git(checkout, List.of("commit", "-q", "-am", "predictions"), logs);
    }

    private static void git(Path repository, List<String> arguments, Path logs) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-c", "user.name=student", "-c", "user.email=student@localhost",
                "-c", "commit.gpgsign=false"));
        command.addAll(arguments);
        CommandRun run = CommandRun.of(command, Map.of(), repository, logs.resolve("git.log"), LIMIT);
        assertThat(run.exit()).as("git %s: %s", arguments, run.output()).isZero();
    }
}
