package fencing.grader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A user other than root who clones the kit and grades with it: the copy and its Maven repository are the user's own,
 * and {@code ./kit grade} runs as that user, with a home of its own.
 *
 * @param name the user's name
 * @param uid  its user id
 * @param gid  its primary group id
 */
record OtherUser(String name, int uid, int gid) {

    /** Returns why {@code name} cannot be used as the other user, or nothing when it can. */
    static Optional<String> unavailable(String name) {
        if (name == null || name.isBlank()) {
            return Optional.of("set KIT_OTHER_USER to a user other than root to grade as (CI creates one)");
        }
        try {
            if (named(name).uid() == 0) {
                return Optional.of("KIT_OTHER_USER=" + name + " is root");
            }
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
        return Optional.empty();
    }

    /** Looks up the user {@code name}. */
    static OtherUser named(String name) {
        try {
            return new OtherUser(name, Integer.parseInt(id("-u", name)), Integer.parseInt(id("-g", name)));
        } catch (IOException | NumberFormatException e) {
            throw new IllegalArgumentException("no user " + name + " on this machine (id: " + e.getMessage() + ")", e);
        }
    }

    /**
     * Copies the kit into {@code home} as this user's, and grades {@code batch} into {@code out} there as this user with
     * {@code ./kit grade}.
     */
    CommandRun grade(Path kit, Path home, Path batch, Path out, Duration limit)
            throws IOException, InterruptedException {
        Files.createDirectories(home);
        Path copy = KitCopy.copy(kit, home.resolve("kit"), false);
        shareMavenRepository(home.resolve(".m2"));
        Files.createDirectories(out);
        sh("chown -R " + uid + ":" + gid + " \"$1\" \"$2\" && chown " + uid + ":" + gid + " \"$3\"",
                copy.toString(), out.toString(), home.toString());
        List<String> command = new ArrayList<>(List.of("setpriv", "--reuid=" + uid, "--regid=" + gid, "--init-groups",
                "env", "-i", "PATH=" + System.getenv("PATH"), "HOME=" + home, "USER=" + name, "LOGNAME=" + name,
                "JAVA_HOME=" + System.getProperty("java.home"),
                // Java takes user.home from the password database, not from HOME: the repository is named outright.
                "MAVEN_ARGS=-o -Dmaven.repo.local=" + home.resolve(".m2/repository")));
        Optional.ofNullable(System.getenv("LANG")).ifPresent(lang -> command.add("LANG=" + lang));
        command.addAll(List.of(copy.resolve("kit").toString(), "grade", "--batch", batch.toString(), "--out", out.toString()));
        return CommandRun.of(command, Map.of(), Path.of("/"), out.resolveSibling(out.getFileName() + ".log"), limit);
    }

    /**
     * Gives the user the Maven repository and wrapper this JVM's user has, without downloading anything: the files are
     * linked (or copied, across file systems) and stay read-only to the user; the folders are the user's, so that Maven
     * can add what it writes beside them.
     */
    private void shareMavenRepository(Path target) throws IOException, InterruptedException {
        Path source = Path.of(System.getProperty("user.home"), ".m2");
        Files.createDirectories(target);
        sh("cp -al \"$1\"/. \"$2\"/ 2>/dev/null || cp -a \"$1\"/. \"$2\"/", source.toString(), target.toString());
        sh("find \"$1\" -type d -exec chown " + uid + ":" + gid + " {} +", target.toString());
    }

    private static void sh(String script, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("sh", "-c", script, "sh"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(script + " failed: " + output);
        }
    }

    private static String id(String option, String name) throws IOException {
        Process process = new ProcessBuilder("id", option, name).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (process.waitFor() != 0) {
                throw new IOException(output);
            }
            return output;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
