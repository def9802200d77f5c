package fencing.lab;

import fencing.support.FileTrees;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * What every run of the study shares, whichever case it plays: the lease's TTL, the exit codes, what the evidence says of
 * the study, the out directory's layout, and how a failure is told.
 *
 * <p>{@link Study} reads the options and hands each case to {@link Repeats} or {@link ChaosStudy}; all three take these
 * from here, so that neither run depends on the command line's class.
 */
final class LabSettings {

    /** The lease's time to live: etcd raises anything shorter to 2 s unless its election timeout is lowered. */
    static final long TTL_SECONDS = 2;
    /** The exit code of a study where a repeat ended otherwise than its case expects. */
    static final int EXIT_DIFFERED = 1;
    /** The exit code of a study that could not run: etcd, a process or the sink failed. */
    static final int EXIT_COULD_NOT_RUN = 3;

    /** What {@code evidence.json} names as the tool that wrote it: the study's main class, as studies already submitted spell it. */
    static final String TOOL = "fencing.lab.Study";

    /** What {@code evidence.json} states as the fenced sink's contract. */
    static final String CONTRACT = "A fenced sink rejects a write whose token is below the highest token it has accepted (its high-water mark);"
            + " it accepts a token equal to or above it.";

    private LabSettings() {
    }

    /** Returns {@code e}'s message followed by each cause's that it does not already say, in parentheses. */
    static String describe(Throwable e) {
        StringBuilder text = new StringBuilder(Objects.toString(e.getMessage(), e.getClass().getName()));
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause.getMessage() != null && !text.toString().contains(cause.getMessage())) {
                text.append(" (").append(cause.getMessage()).append(')');
            }
        }
        return text.toString();
    }

    /** Writes {@code e}'s stack trace to {@code study-error.log} in {@code dir}. */
    static void writeStackTrace(Path dir, Exception e) {
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        try {
            Files.writeString(dir.resolve("study-error.log"), trace.toString());
        } catch (IOException io) {
            e.addSuppressed(io);
            throw new UncheckedIOException("could not write " + dir.resolve("study-error.log") + " after: " + e.getMessage(), io);
        }
    }

    /** Returns the folder of repeat number {@code repeat} in {@code dir}, e.g. {@code repeat-01}. */
    static Path repeatDir(Path dir, int repeat) {
        return dir.resolve(String.format(Locale.ROOT, "repeat-%02d", repeat));
    }

    /** Creates {@code dir}, removing only what an earlier study wrote there, so that old repeats never mix with new ones. */
    static void prepareOutDir(Path dir) {
        try {
            Files.createDirectories(dir);
            try (Stream<Path> old = Files.list(dir)) {
                for (Path path : old.filter(p -> p.getFileName().toString().matches("repeat-\\d+")).toList()) {
                    FileTrees.delete(path);
                }
            }
            FileTrees.delete(dir.resolve("chaos"));
            for (String name : List.of("evidence.json", "report.md", "report.html", "study-error.log", "history.jsonl", "index.md")) {
                Files.deleteIfExists(dir.resolve(name));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the out directory " + dir, e);
        }
    }
}
