package fencing.grader;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code docker} command: a template's image built and removed, and the steps whose exit code alone matters (an
 * engine check, an inspect).
 */
final class Docker {

    /** How long an image build may take: one uncached installs a JDK and builds the kit. */
    private static final Duration BUILD_LIMIT = Duration.ofMinutes(30);

    private Docker() {
    }

    /**
     * Returns why an image cannot be built here on the local image {@code base}, or {@code null} if it can.
     *
     * @throws AssertionError if it cannot and {@code KIT_REQUIRE_DOCKER=true}, as CI sets it, where a skipped image test would
     *                        pass for one that ran
     */
    static String cannotBuildOn(String base) {
        String why = !answers(List.of("info")) ? "no Docker engine answers"
                : !answers(List.of("image", "inspect", base)) ? "no local base image " + base + " (no registry is pulled from;"
                        + " .ci/debian-image.sh makes one)" : null;
        if (why != null && "true".equalsIgnoreCase(System.getenv("KIT_REQUIRE_DOCKER"))) {
            throw new AssertionError("KIT_REQUIRE_DOCKER=true, but " + why);
        }
        return why;
    }

    /**
     * Builds the image {@code tag} from {@code context} on the local base image {@code base}, with host networking and
     * {@code options}, its output in {@code log} (whose folder it runs in), and records under {@code what} how long it took.
     */
    static CommandRun build(String tag, String base, List<String> options, Path context, Path log, String what)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("docker", "build", "--force-rm", "--network", "host", "--build-arg",
                "BASE=" + base, "-t", tag));
        command.addAll(options);
        command.add(context.toString());
        long start = System.nanoTime();
        CommandRun build = CommandRun.of(command, Map.of(), log.getParent(), log, BUILD_LIMIT);
        Uploads.record(String.format(Locale.ROOT, "%s: %.0f s", what, (System.nanoTime() - start) / 1e9));
        return build;
    }

    /** Removes the image {@code tag}, whether or not a build made it. */
    static void removeImage(String tag) {
        answers(List.of("image", "rm", "-f", tag));
    }

    /** Runs {@code docker} with {@code arguments}, its output discarded; true when it exits 0 within a minute. */
    static boolean answers(List<String> arguments) {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(arguments);
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return false;
            }
            return process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
