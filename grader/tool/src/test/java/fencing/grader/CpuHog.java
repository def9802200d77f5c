package fencing.grader;

import fencing.support.Supervised;
import java.io.File;
import java.io.IOException;
import java.util.List;

/**
 * A busy machine: one process of its own that keeps every core busy, started beside a grading that must come out the
 * same as on a quiet machine, and stopped with everything it started.
 */
final class CpuHog implements AutoCloseable {

    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private final Supervised loops;

    private CpuHog(Supervised loops) {
        this.loops = loops;
    }

    /** Starts one endless busy loop per core, with its log in {@code log}. */
    static CpuHog start(File log) throws IOException {
        return new CpuHog(Supervised.start("CPU hog", List.of("sh", "-c",
                "i=0; while [ $i -lt " + CORES + " ]; do (while :; do :; done) & i=$((i + 1)); done; wait"), log));
    }

    /** How many grades run at once under overload: four times as many as cores. */
    static int overloadJobs() {
        return 4 * CORES;
    }

    @Override
    public void close() {
        loops.close();
    }
}
