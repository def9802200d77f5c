package fencing.grader.classpage;

import fencing.support.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The student-owned files a batch keeps in each graded student's report folder (the sources and {@code ANSWERS.md}),
 * exactly as the intake read them, so that the class page can compare the class again later (after a merge, a regrade)
 * without the submissions.
 */
public final class KeptFiles {

    /** The folder inside a student's report folder, laid out like {@code exercises/}. */
    public static final String FOLDER = "student-files";

    private KeptFiles() {
    }

    /**
     * Keeps {@code files} (by path in the submission) in {@code reports}, replacing what an earlier grade kept.
     */
    public static void write(Path reports, Map<String, byte[]> files) throws IOException {
        Path kept = reports.resolve(FOLDER);
        FileTrees.delete(kept);
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Path copy = kept.resolve(file.getKey());
            Files.createDirectories(copy.getParent());
            Files.write(copy, file.getValue());
        }
    }
}
