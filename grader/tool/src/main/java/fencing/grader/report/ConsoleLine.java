package fencing.grader.report;

import fencing.grader.pipeline.Grade;
import java.util.Locale;

/** The one line a grade prints on the console: the submission, its score and how it ended, the same for one and a batch. */
public final class ConsoleLine {

    private ConsoleLine() {
    }

    /** Returns {@code grade}'s line. */
    public static String of(Grade grade) {
        if (grade.status() == Grade.Status.COULD_NOT_RUN) {
            return String.format(Locale.ROOT, "%-24s   - / %3d  in %5.1f s  (grading could not run)", grade.submission(),
                    grade.maxScore(), grade.seconds());
        }
        String failed = grade.failedTags().isEmpty() || grade.status() != Grade.Status.GRADED ? ""
                : "  failed: " + String.join(", ", grade.failedTags());
        String state = grade.status() == Grade.Status.NOT_GRADED ? "  (not graded)" : grade.compiled() ? "" : "  (compilation failed)";
        return String.format(Locale.ROOT, "%-24s %3d / %3d  in %5.1f s%s%s", grade.submission(), grade.score(),
                grade.maxScore(), grade.seconds(), state, failed);
    }
}
