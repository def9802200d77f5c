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
     * The files a student owns beside the sources, relative to the submission: the written answers, graded, and
     * the lab run's evidence their figures are checked against.
     */
    public static final List<String> BESIDE_SOURCES = List.of("ANSWERS.md", "evidence.json");

    /** The source root inside a submission, laid out like {@code exercises/}. */
    public static final String SOURCE_ROOT = "src/main/java";

    private StudentFiles() {
    }
}
