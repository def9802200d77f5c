package fencing.grader.handout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Makes a written handout a git repository with one commit of all its files, the commit students start from.
 *
 * <p>The commit's author is a fixed neutral identity given to that one command ({@code git -c user.name=...}),
 * never written to any configuration: the instructor's own identity stays out of the handout, and the student's
 * commits carry the student's. Signing and hooks are turned off for that commit alone, since an instructor's
 * settings for their own work (a signing key, a pre-commit hook) must not decide whether a handout can be written.
 */
final class HandoutRepository {

    /** Git's own folder in the handout. */
    static final String GIT_DIR = ".git";

    static final String AUTHOR_NAME = "Fencing kit handout";
    static final String AUTHOR_EMAIL = "handout@fencing-kit.invalid";
    static final String MESSAGE = "The handout: stubs, provided code, public tests and the lab";

    private static final long TIMEOUT_SECONDS = 60;

    private HandoutRepository() {
    }

    /** Fails, saying what to install, unless a {@code git} runs from the {@code PATH}. */
    static void requireGit() throws IOException {
        try {
            run(Path.of("."), List.of("--version"));
        } catch (IOException e) {
            throw new IllegalStateException("the handout is written as a git repository, and git did not run ("
                    + e.getMessage() + "): install git (Debian/Ubuntu: apt-get install git) and write it again", e);
        }
    }

    /** Turns {@code handout} into a git repository on branch {@code main} with all its files in one commit. */
    static void commitAll(Path handout) throws IOException {
        run(handout, List.of("-c", "init.defaultBranch=main", "init", "-q"));
        run(handout, List.of("add", "-A"));
        run(handout, List.of("-c", "user.name=" + AUTHOR_NAME, "-c", "user.email=" + AUTHOR_EMAIL, "-c", "commit.gpgsign=false",
                "commit", "-q", "--no-verify", "-m", MESSAGE));
    }

    private static void run(Path dir, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        // A git run from inside another repository's hook would otherwise write to that repository.
        builder.environment().keySet().removeAll(List.of("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"));
        Process git = builder.start();
        try {
            // Read before waiting: git writes little, but a full pipe would stop it.
            String output = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!git.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IOException(String.join(" ", command) + " did not end in " + TIMEOUT_SECONDS + " s");
            }
            if (git.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " exited with " + git.exitValue() + ": " + output.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while " + String.join(" ", command) + " ran", e);
        } finally {
            git.destroyForcibly();
        }
    }
}
