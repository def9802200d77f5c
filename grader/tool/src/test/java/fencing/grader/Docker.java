package fencing.grader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The {@code docker} command, for the steps whose exit code alone matters: an engine check, an inspect, a removal. */
final class Docker {

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
