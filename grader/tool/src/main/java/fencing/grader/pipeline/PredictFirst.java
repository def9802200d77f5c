package fencing.grader.pipeline;

import fencing.grader.StudentFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Tells the instructor whether a submission's git history has {@code Predictions} committed before {@code Resource}
 * was implemented: information for a person, never points.
 *
 * <p>The handout's first commit holds both stubs, so only later commits count: the first one that changes each file.
 */
final class PredictFirst {

    static final String PREDICTIONS = StudentFiles.SOURCE_ROOT + "/fencing/basics/Predictions.java";
    static final String RESOURCE = StudentFiles.SOURCE_ROOT + "/fencing/basics/Resource.java";

    private static final long GIT_TIMEOUT_SECONDS = 20;

    private PredictFirst() {
    }

    /**
     * Returns the note for {@code submission}, or empty when it is not the top of a git repository with commits; a
     * history git cannot read is said so in the note, and grading goes on.
     */
    static Optional<String> note(Path submission) throws InterruptedException {
        if (!Files.exists(submission.resolve(".git"))) {
            return Optional.empty();
        }
        try {
            return read(submission);
        } catch (IOException e) {
            return Optional.of("Predict first (for the instructor, no points): the git history could not be read: "
                    + e.getMessage());
        }
    }

    private static Optional<String> read(Path submission) throws IOException, InterruptedException {
        List<String> order = git(submission, "rev-list", "--reverse", "--topo-order", "HEAD");
        if (order.isEmpty()) {
            return Optional.empty();
        }
        List<String> roots = git(submission, "rev-list", "--max-parents=0", "HEAD");
        Optional<String> predictions = firstChange(submission, PREDICTIONS, roots);
        Optional<String> resource = firstChange(submission, RESOURCE, roots);
        String prefix = "Predict first (for the instructor, no points): ";
        if (predictions.isEmpty()) {
            return Optional.of(prefix + "no commit after the first one changes Predictions.java.");
        }
        if (resource.isEmpty()) {
            return Optional.of(prefix + "Predictions.java was committed (" + shortId(predictions.get())
                    + ") and no commit after the first one changes Resource.java.");
        }
        int p = order.indexOf(predictions.get());
        int r = order.indexOf(resource.get());
        String verdict = p == r ? "Predictions.java and Resource.java were first changed in the same commit "
                + shortId(predictions.get())
                : p < r ? "Predictions.java was committed (" + shortId(predictions.get()) + ") before Resource.java was"
                + " first changed (" + shortId(resource.get()) + ")"
                : "Resource.java was first changed (" + shortId(resource.get()) + ") before Predictions.java was"
                + " committed (" + shortId(predictions.get()) + ")";
        return Optional.of(prefix + verdict + ".");
    }

    private static Optional<String> firstChange(Path repository, String path, List<String> roots)
            throws IOException, InterruptedException {
        return git(repository, "log", "--reverse", "--format=%H", "HEAD", "--", path).stream()
                .filter(commit -> !roots.contains(commit)).findFirst();
    }

    private static String shortId(String commit) {
        return commit.substring(0, Math.min(10, commit.length()));
    }

    /** Runs git in {@code repository}; the repository may belong to another user, as a student's upload does. */
    private static List<String> git(Path repository, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-c", "safe.directory=*", "-C", repository.toString()));
        command.addAll(List.of(arguments));
        Path output = Files.createTempFile("fencing-git-", ".txt");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            try {
                if (!process.waitFor(GIT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    throw new IOException("git " + String.join(" ", arguments) + " did not finish in " + GIT_TIMEOUT_SECONDS + " s");
                }
            } finally {
                process.destroyForcibly();
            }
            List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8).stream()
                    .map(String::strip).filter(line -> !line.isEmpty()).toList();
            // An empty repository (no HEAD yet) has nothing to tell; any other failure is the grader's to report.
            if (process.exitValue() != 0) {
                if (String.join("\n", lines).contains("unknown revision") || String.join("\n", lines).contains("ambiguous argument 'HEAD'")) {
                    return List.of();
                }
                throw new IOException("git " + String.join(" ", arguments) + " failed in " + repository + ": " + String.join("\n", lines));
            }
            return lines;
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
