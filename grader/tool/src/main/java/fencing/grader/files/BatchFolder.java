package fencing.grader.files;

import java.nio.file.Path;
import java.util.UUID;

/**
 * The layout of a batch's output folder, in one place: a folder of reports per student, the gradebook, the batch's
 * record and a regrade's report beside them, and while the batch runs, the progress records of its finished grades.
 */
public final class BatchFolder {

    /** The gradebook, one row per student, for spreadsheets. */
    public static final String GRADEBOOK_CSV = "gradebook.csv";
    /** The gradebook, one row per student, to read. */
    public static final String GRADEBOOK_MD = "gradebook.md";
    /** A regrade's report: per student the earlier and the new score and what changed. */
    public static final String REGRADE_MD = "regrade.md";
    /** A regrade's report, for spreadsheets. */
    public static final String REGRADE_CSV = "regrade.csv";
    /**
     * The folder of the progress records of a batch that has not ended ({@link ProgressRecord}); a dot first, as no
     * student's reports folder begins, since a batch takes no hidden folder for a submission.
     */
    public static final String PROGRESS = ".progress";

    private BatchFolder() {
    }

    /** Returns the folder of {@code student}'s reports in the batch output {@code out}. */
    public static Path reports(Path out, String student) {
        return out.resolve(reportFolder(student));
    }

    /** Returns the name of a student's reports folder: the submission's name, made safe to be one path element. */
    public static String reportFolder(String student) {
        String safe = student.replaceAll("[\\p{Cntrl}/\\\\]", "_");
        return safe.isEmpty() || safe.equals(".") || safe.equals("..") ? "_" + safe : safe;
    }

    /** Returns the folder of the progress records in the batch output {@code out}. */
    public static Path progress(Path out) {
        return out.resolve(PROGRESS);
    }

    /** Returns the file of {@code student}'s progress record in the batch output {@code out}. */
    public static Path progressRecord(Path out, String student) {
        return progress(out).resolve(reportFolder(student));
    }

    /** Returns the student a submission folder stands for: its name. */
    public static String student(Path submission) {
        return submission.toAbsolutePath().normalize().getFileName().toString();
    }

    /** Returns a fresh etcd key prefix for grading {@code submission}, so that submissions sharing an etcd never meet. */
    public static String keyPrefix(Path submission) {
        return "grade/" + reportFolder(student(submission)) + "-" + UUID.randomUUID();
    }
}
