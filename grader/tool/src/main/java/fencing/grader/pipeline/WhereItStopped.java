package fencing.grader.pipeline;

import fencing.grader.StudentFiles;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a test stopped for its limits was, in the student's code: a hint put first in its message, never a verdict.
 *
 * <p>Just before the grader stops a test JVM for a test's CPU budget or the wall-clock backstop, it sends that JVM
 * {@code SIGQUIT}, on which HotSpot prints a thread dump to its standard output; {@link OutputTail} sets the dump apart
 * from the output the report shows. Of the threads that were in a student-owned class ({@link StudentFiles#PATHS},
 * nested classes and lambdas included), the top such frame of each is the place: of the running threads for an endless
 * loop, of the waiting ones for a deadlock. The signal needs no more rights than stopping the JVM does: the grader, as
 * root, signals the JVM it runs as nobody, in namespaces that share its process IDs.
 */
final class WhereItStopped {

    /** A dump takes milliseconds; this is for a JVM slow to reach a safepoint on a busy machine. */
    private static final Duration DUMP_LIMIT = Duration.ofSeconds(5);
    private static final Duration SIGNAL_LIMIT = Duration.ofSeconds(5);
    /** How many places a message names: more would hide the rule it is about. */
    private static final int MOST_PLACES = 2;
    private static final Pattern FRAME = Pattern.compile("\\s+at (?:[^ /]+/)?([\\w$.]+)\\.([\\w$<>]+)\\(([^)]*)\\)");
    private static final Pattern STATE = Pattern.compile("\\s+java\\.lang\\.Thread\\.State: (\\w+).*");
    private static final List<String> STUDENT_CLASSES = StudentFiles.PATHS.stream()
            .map(path -> path.substring(0, path.length() - ".java".length()).replace('/', '.')).toList();

    private WhereItStopped() {
    }

    /**
     * Asks the JVM {@code pid} for a thread dump, read from its {@code output}, and returns where its threads were in
     * the student's code, or empty if the dump did not come in time or named no student class.
     */
    static Optional<String> sample(long pid, OutputTail output, JvmWatch.Kind kind) throws IOException, InterruptedException {
        return output.awaitThreadDump(DUMP_LIMIT, () -> signal(pid)).flatMap(text -> place(text, kind));
    }

    private static void signal(long pid) throws IOException {
        // Java sends no SIGQUIT of its own; the shell's kill does, and a JVM already gone only makes it fail.
        Process kill = new ProcessBuilder("sh", "-c", "kill -QUIT \"$1\"", "sh", Long.toString(pid))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!kill.waitFor(SIGNAL_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                kill.destroyForcibly();
            }
        } catch (InterruptedException e) {
            kill.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Returns, from a HotSpot thread {@code dump}, the places in the student's code of the threads that suit {@code kind}
     * ({@link JvmWatch.Kind#OVER_BUDGET}: running ones first; otherwise waiting ones first), e.g. {@code Quorum.size
     * (Quorum.java:14)}, or empty if no thread was in a student's class.
     */
    static Optional<String> place(String dump, JvmWatch.Kind kind) {
        Set<String> preferred = new LinkedHashSet<>();
        Set<String> others = new LinkedHashSet<>();
        String state = null;
        String top = null;
        for (String line : (dump + "\n\n").split("\n", -1)) {
            Matcher stateLine = STATE.matcher(line);
            Matcher frame = FRAME.matcher(line);
            if (line.startsWith("\"")) {
                state = null;
                top = null;
            } else if (stateLine.matches()) {
                state = stateLine.group(1);
            } else if (top == null && frame.matches() && isStudents(frame.group(1))) {
                top = describe(frame.group(1), frame.group(2), frame.group(3));
                boolean running = "RUNNABLE".equals(state);
                (running == (kind == JvmWatch.Kind.OVER_BUDGET) ? preferred : others).add(top);
            }
        }
        List<String> places = new ArrayList<>(preferred.isEmpty() ? others : preferred);
        return places.isEmpty() ? Optional.empty()
                : Optional.of(String.join(" and ", places.subList(0, Math.min(MOST_PLACES, places.size()))));
    }

    private static boolean isStudents(String className) {
        return STUDENT_CLASSES.stream().anyMatch(owned -> className.equals(owned) || className.startsWith(owned + "$"));
    }

    private static String describe(String className, String method, String source) {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        String[] lambda = method.split("\\$");
        String where = method.startsWith("lambda$") && lambda.length > 1 ? simple + "." + lambda[1] + ", in a lambda"
                : simple + "." + method;
        return where + (source.isEmpty() ? "" : " (" + source + ")");
    }

    /** The message of a test stopped for its CPU budget, which says first where it was, if {@code place} says. */
    static String overBudget(Limits.Test limits, JvmWatch.Ending ending, Optional<String> place) {
        String stopped = "its JVM was stopped after " + ending.wall().toSeconds() + " s";
        return place.map(in -> "stopped after " + limits.cpu().toSeconds() + " CPU-seconds in " + in
                        + ": an endless loop? It used more than its budget of " + limits.cpu().toSeconds()
                        + " CPU-seconds without finishing; " + stopped)
                .orElse("used more than its budget of " + limits.cpu().toSeconds() + " CPU-seconds without"
                        + " finishing (an endless loop?): " + stopped);
    }

    /** The message of a test stopped by the wall-clock backstop, which says first where it waited, if {@code place} says. */
    static String backstop(Limits.Test limits, JvmWatch.Ending ending, Optional<String> place) {
        String figures = "timed out after " + ending.wall().toSeconds() + " s without finishing, having used only "
                + String.format(Locale.ROOT, "%.1f s", ending.cpu().toMillis() / 1000.0) + " of its "
                + limits.cpu().toSeconds() + " CPU-seconds, and not for want of a CPU";
        return place.map(in -> "waiting in " + in + " (a deadlock, or a wait that never ends?): " + figures
                        + "; its JVM was stopped")
                .orElse(figures + " (a deadlock, or a wait that never ends?): its JVM was stopped");
    }
}
