package fencing.grader;

import fencing.support.Supervised;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A command run as an instructor or a platform runs it: a process of its own under the watchdog (so nothing it starts
 * outlives the run), with this JVM's environment changed as given, its output kept in a log.
 *
 * @param exit   its exit code
 * @param output everything it printed
 */
record CommandRun(int exit, String output) {

    /** Variables that would make the command use this JVM's etcd or options instead of its own. */
    private static final List<String> NOT_PASSED_ON = List.of("ETCD_ENDPOINTS", "ETCD_KEY_PREFIX", "JAVA_TOOL_OPTIONS",
            "_JAVA_OPTIONS", "MAVEN_OPTS");

    /**
     * Runs {@code command} in {@code workingDirectory} and waits for it.
     *
     * @param changes variables to set, or to remove where the value is {@code null}, after this JVM's own are taken
     *                without {@link #NOT_PASSED_ON} and with {@code JAVA_HOME} set to this JVM's
     * @throws AssertionError if it does not end within {@code limit}
     */
    static CommandRun of(List<String> command, Map<String, String> changes, Path workingDirectory, Path log, Duration limit)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile());
        NOT_PASSED_ON.forEach(builder.environment()::remove);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        changes.forEach((variable, value) -> {
            if (value == null) {
                builder.environment().remove(variable);
            } else {
                builder.environment().put(variable, value);
            }
        });
        Files.createDirectories(log.toAbsolutePath().getParent());
        try (Supervised process = Supervised.start(String.join(" ", command.subList(0, Math.min(3, command.size()))), builder,
                log.toFile())) {
            if (!process.awaitExit(limit)) {
                throw new AssertionError(command + " did not end within " + limit.toMinutes() + " min; its output: " + log);
            }
            return new CommandRun(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        }
    }
}
