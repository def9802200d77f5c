package fencing.grader;

import java.util.List;

/** The files a student owns: the only files the grader takes from a submission. */
public final class StudentFiles {

    /** Paths relative to {@code src/main/java}. */
    public static final List<String> PATHS = List.of(
            "fencing/basics/LockService.java",
            "fencing/basics/Resource.java",
            "fencing/basics/NaiveResource.java",
            "fencing/basics/Fencing.java",
            "fencing/basics/Predictions.java",
            "fencing/basics/Quorum.java",
            "fencing/etcd/EtcdLockService.java",
            "fencing/etcd/EpochLockService.java",
            "fencing/etcd/Recovery.java",
            "fencing/sink/FencedSink.java",
            "fencing/sink/OwnerCheckingSink.java",
            "fencing/sink/IdempotentLedger.java",
            "fencing/etcd/EtcdOwnerCheck.java");

    /**
     * The student files of the extension tasks (Part 4 and the restore drill), whose tests are tagged {@code extension}:
     * required only when the extension counts.
     */
    public static final List<String> EXTENSION_PATHS = List.of(
            "fencing/etcd/EpochLockService.java",
            "fencing/etcd/Recovery.java",
            "fencing/sink/OwnerCheckingSink.java",
            "fencing/sink/IdempotentLedger.java",
            "fencing/etcd/EtcdOwnerCheck.java");

    /**
     * The files a student owns beside the sources, relative to the submission: the written answers, graded, and
     * the lab run's evidence their figures are checked against.
     */
    public static final List<String> BESIDE_SOURCES = List.of("ANSWERS.md", "evidence.json");

    /**
     * The folder of {@code ./kit study --case all}'s output beside the sources: of each case folder in it, the grader takes
     * {@link #EVIDENCE} alone, read and limited like every other student file.
     */
    public static final String STUDY = "study";

    /**
     * The zipped out folder of {@code ./kit study --case all} beside the sources, for an upload of flat files: of each case
     * folder in it, the grader takes {@link #EVIDENCE} alone, as from {@link #STUDY}.
     */
    public static final String STUDY_ARCHIVE = "study.zip";

    /** The file taken from each case folder of {@link #STUDY}. */
    public static final String EVIDENCE = "evidence.json";

    /** What a case folder's name looks like, e.g. {@code late-write}; other entries of {@link #STUDY} are left alone. */
    public static final java.util.regex.Pattern CASE_NAME = java.util.regex.Pattern.compile("[a-z][a-z0-9-]{0,39}");

    /** How many case folders {@link #STUDY} may hold: a few more than the lab has cases. */
    public static final int MAX_STUDY_CASES = 24;

    /** The source root inside a submission, laid out like {@code exercises/}. */
    public static final String SOURCE_ROOT = "src/main/java";

    private StudentFiles() {
    }

    /** Returns the student files a submission is expected to hold: all of them, or the core's alone. */
    public static List<String> required(boolean extensions) {
        return extensions ? PATHS : PATHS.stream().filter(path -> !EXTENSION_PATHS.contains(path)).toList();
    }
}
