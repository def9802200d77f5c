package fencing.lab;

import fencing.support.evidence.Evidence;
import fencing.support.evidence.SinkReply;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** One run of the study's command line in this JVM (its workers and sink servers are real child processes). */
final class StudyRun {

    final int exitCode;
    final String out;
    final String err;
    final Path dir;

    private StudyRun(int exitCode, String out, String err, Path dir) {
        this.exitCode = exitCode;
        this.out = out;
        this.err = err;
        this.dir = dir;
    }

    /** Runs {@code study --out dir args...} and keeps what it printed. */
    static StudyRun of(Path dir, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine study = Study.commandLine();
        study.setOut(new PrintWriter(out, true));
        study.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of("--out", dir.toString()));
        all.addAll(List.of(args));
        int exitCode = study.execute(all.toArray(String[]::new));
        // Echoed, so that a failing test's report shows what the study said.
        System.out.println(out);
        System.err.println(err);
        return new StudyRun(exitCode, out.toString(), err.toString(), dir);
    }

    /** Returns {@code evidence.json}, read through its records, as the grader reads it. */
    Evidence.Study evidence() {
        try {
            return Evidence.read(dir.resolve(Evidence.FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("no readable " + Evidence.FILE + " in " + dir, e);
        }
    }

    /** Returns the first repeat's evidence. */
    Evidence.Repeat repeat() {
        List<Evidence.Repeat> repeats = evidence().repeats();
        if (repeats == null || repeats.isEmpty()) {
            throw new AssertionError("the study finished no repeat (exit " + exitCode + "); it said:\n" + out + err);
        }
        return repeats.get(0);
    }

    /** Returns the write {@code from} sent to {@code mode} (as the paths spell it, e.g. {@code current-owner}) in the first repeat, as recorded. */
    Evidence.Call write(String from, String mode) {
        for (Evidence.Call call : repeat().trace().exchanges()) {
            if (call.from().equals(from) && call.path().equals("/sinks/" + mode + "/write")) {
                return call;
            }
        }
        throw new AssertionError("no write from " + from + " to " + mode + " in the evidence of " + dir);
    }

    /**
     * Returns the sink's verdict in {@code call}'s response.
     *
     * <p>A write that got no verdict (no response came, or an error) fails here with what came instead, rather than as a
     * cast or a null further on.
     */
    static SinkReply.WriteVerdict verdictOf(Evidence.Call call) {
        if (call.response() instanceof SinkReply.WriteVerdict verdict) {
            return verdict;
        }
        throw new AssertionError("no verdict in the response to " + call.from() + "'s " + call.method() + " " + call.path()
                + " (status " + call.status() + ", error " + call.error() + "): " + call.response());
    }

    String file(String name) {
        try {
            return Files.readString(dir.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException("no " + name + " in " + dir, e);
        }
    }

    @Override
    public String toString() {
        return "study in " + dir + " (exit " + exitCode + ")";
    }
}
