package fencing.grader.batch;

import fencing.grader.files.BatchFolder;
import fencing.grader.files.BatchRecord;
import fencing.grader.files.GradebookRow;
import fencing.grader.files.ProgressRecord;
import fencing.grader.files.ResultsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The output of an earlier batch that a regrade starts from ({@code --since OLD}): its record, its gradebook rows and
 * its students' reports, checked whole before anything is graded. Its {@code gradebook.md} must be there, but a reused
 * row is read from {@code gradebook.csv}, of which the Markdown row is made. The output of a batch that was stopped
 * before it wrote its {@code batch.json} is read from its progress records instead: the students it finished.
 */
public final class PreviousBatch {

    private final Path dir;
    private final String grader;
    private final Map<String, String> fingerprints;
    private final Map<String, GradebookRow> rows;

    private PreviousBatch(Path dir, String grader, Map<String, String> fingerprints, Map<String, GradebookRow> rows) {
        this.dir = dir;
        this.grader = grader;
        this.fingerprints = fingerprints == null ? Map.of() : fingerprints;
        this.rows = rows;
    }

    /**
     * Reads the batch output in {@code dir}.
     *
     * @throws IllegalArgumentException if {@code dir} is missing, is not the output of a batch, or was written in
     *                                  another format than this grader's, saying which
     */
    public static PreviousBatch read(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException("--since " + dir + ": there is no such folder; give the --out folder of an"
                    + " earlier ./kit grade --batch");
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--since " + dir + " is not a folder; give the --out folder of an earlier"
                    + " ./kit grade --batch");
        }
        BatchRecord record;
        try {
            if (!Files.isRegularFile(dir.resolve(BatchRecord.FILE))) {
                Map<String, ProgressRecord> finished = ProgressRecord.readAll(dir);
                if (!finished.isEmpty()) {
                    return stopped(dir, finished);
                }
            }
            record = BatchRecord.read(dir);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--since " + e.getMessage(), e);
        }
        if (record.format() == null) {
            throw new IllegalArgumentException("--since " + dir + " was graded by an earlier version of the grader, which"
                    + " kept no fingerprints, so nothing in it can be reused or compared: grade the class once without --since");
        }
        if (record.format() != Fingerprints.FORMAT) {
            throw new IllegalArgumentException("--since " + dir + " is in batch format " + record.format() + ", and this grader"
                    + " reads format " + Fingerprints.FORMAT + ": grade the class once without --since");
        }
        Path csvFile = dir.resolve(BatchFolder.GRADEBOOK_CSV);
        Path mdFile = dir.resolve(BatchFolder.GRADEBOOK_MD);
        if (!Files.isRegularFile(csvFile) || !Files.isRegularFile(mdFile)) {
            throw new IllegalArgumentException("--since " + dir + " has a " + BatchRecord.FILE + " but no gradebook.csv and"
                    + " gradebook.md: it is not a whole batch output");
        }
        List<GradebookRow> csv;
        try {
            csv = GradebookRow.read(csvFile);
        } catch (GradebookRow.OtherColumns e) {
            throw new IllegalArgumentException("--since " + dir + "'s gradebook.csv has other columns than this grader writes ("
                    + e.found() + "): grade the class once without --since", e);
        }
        List<String> graded = record.graded();
        if (!csv.stream().map(GradebookRow::student).toList().equals(graded)) {
            throw new IllegalArgumentException("--since " + dir + "'s gradebook does not list the " + graded.size()
                    + " students its " + BatchRecord.FILE + " says it graded");
        }
        Map<String, GradebookRow> rows = new LinkedHashMap<>();
        csv.forEach(row -> rows.put(row.student(), row));
        return new PreviousBatch(dir, record.grader(), record.fingerprints(), rows);
    }

    /** The batch stopped in {@code dir} before it ended, as far as it got: the grades it {@code finished}. */
    private static PreviousBatch stopped(Path dir, Map<String, ProgressRecord> finished) {
        List<Integer> formats = finished.values().stream().map(ProgressRecord::format).distinct().toList();
        if (!formats.equals(List.of(Fingerprints.FORMAT))) {
            throw new IllegalArgumentException(dir + " was stopped part-way by a grader of batch format " + formats.get(0)
                    + ", and this grader reads format " + Fingerprints.FORMAT + ": grade the class once without --since");
        }
        List<String> graders = finished.values().stream().map(ProgressRecord::grader).distinct().toList();
        Map<String, String> fingerprints = new TreeMap<>();
        Map<String, GradebookRow> rows = new LinkedHashMap<>();
        for (ProgressRecord record : finished.values()) {
            rows.put(record.student(), record.row());
            if (record.fingerprint() != null) {
                fingerprints.put(record.student(), record.fingerprint());
            }
        }
        // Records by different graders tell no one grader to compare with: nothing of them is reused.
        return new PreviousBatch(dir, graders.size() == 1 ? graders.get(0) : null, fingerprints, rows);
    }

    /** Returns the folder. */
    Path dir() {
        return dir;
    }

    /** Whether the earlier batch was graded by a grader of fingerprint {@code grader}. */
    boolean sameGrader(String grader) {
        return this.grader != null && this.grader.equals(grader);
    }

    /**
     * Whether the earlier grade of {@code student} stands for a grade now: the same grader graded student files of the
     * same fingerprint, the result was a grade (not a refusal, not a failure of the grader's), and its report is there.
     */
    boolean reusable(String student, String grader, String fingerprint) {
        return sameGrader(grader) && fingerprint.equals(fingerprints.get(student))
                && rows.containsKey(student) && Files.isRegularFile(report(student).resolve(ResultsFile.FILE), LinkOption.NOFOLLOW_LINKS);
    }

    /** Whether the earlier batch graded {@code student}. */
    boolean graded(String student) {
        return rows.containsKey(student);
    }

    /** Returns the students the earlier batch graded, in its gradebook's order. */
    List<String> students() {
        return List.copyOf(rows.keySet());
    }

    /** Returns {@code student}'s gradebook row. */
    GradebookRow row(String student) {
        return rows.get(student);
    }

    /** Returns the folder of {@code student}'s reports. */
    Path report(String student) {
        return BatchFolder.reports(dir, student);
    }
}
