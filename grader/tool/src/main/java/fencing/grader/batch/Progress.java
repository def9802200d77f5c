package fencing.grader.batch;

import fencing.grader.files.BatchFolder;
import fencing.grader.files.BatchRecord;
import fencing.grader.files.GradeStatus;
import fencing.grader.files.GradebookRow;
import fencing.grader.files.ProgressRecord;
import fencing.grader.files.ResultsFile;
import fencing.support.FileTrees;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A batch's progress in its output folder: each finished grade is recorded ({@link ProgressRecord}) once its reports
 * are written, so that a batch stopped part-way (a signal, a closed terminal, a cancelled CI job) and run again over the
 * same folder keeps every finished grade whose fingerprints still match and grades only the rest.
 *
 * <p>An output folder is new, finished ({@code batch.json} and no progress records: a batch grades it again whole, as
 * it always did), or stopped (progress records: a batch continues it). A running batch's folder has no
 * {@code batch.json}. The records go once the batch has written its gradebook, {@code batch.json} and class page,
 * unless a grade could not run: then they stay, and running the batch again grades only those. A stopped batch's
 * records that name a student this batch does not grade are another batch's, and the folder is refused before anything
 * is changed.
 */
public final class Progress {

    /** Where an ended batch's records go in one step before they are deleted, so that a stop then leaves none as progress. */
    private static final String ENDED = BatchFolder.PROGRESS + "-ended";

    private final Path out;
    private final int submissions;
    private final Map<String, ProgressRecord> found;

    private Progress(Path out, int submissions, Map<String, ProgressRecord> found) {
        this.out = out;
        this.submissions = submissions;
        this.found = found;
    }

    /**
     * Reads what the output folder {@code out} holds of a batch run before, for the batch of the submissions
     * {@code all} in {@code shard}; changes nothing.
     *
     * @throws IllegalArgumentException if {@code out} holds a damaged progress record, or those of a stopped batch of
     *                                  other submissions, saying which and what to do
     */
    public static Progress open(Path out, List<Path> all, Shard shard) throws IOException {
        Set<String> students = all.stream().map(BatchFolder::student).filter(shard::contains).collect(Collectors.toSet());
        Map<String, ProgressRecord> found = ProgressRecord.readAll(out);
        List<String> strangers = found.keySet().stream().filter(student -> !students.contains(student)).toList();
        if (!strangers.isEmpty()) {
            throw new IllegalArgumentException("--out " + out + " holds the finished grades of a stopped batch of other"
                    + " submissions (" + names(strangers) + (strangers.size() == 1 ? " is" : " are") + " not among those this batch"
                    + " grades" + (shard.count() > 1 ? " in shard " + shard : "") + "): continue that batch with its own --batch"
                    + " (and --shard), or give another --out");
        }
        return new Progress(out, students.size(), found);
    }

    /**
     * Starts this batch in the folder: takes back its {@code batch.json}, so that until this batch writes its own the
     * folder is this batch's progress and not the record of one before over reports of this one; and continues a stopped
     * batch, saying so and how much of it stands, forgetting its records by another grader.
     *
     * @return the progress whose records this batch may reuse
     */
    Progress begin(String grader, PrintStream console) throws IOException {
        FileTrees.delete(out.resolve(ENDED));
        Files.deleteIfExists(out.resolve(BatchRecord.FILE));
        if (found.isEmpty()) {
            return this;
        }
        Map<String, ProgressRecord> standing = new TreeMap<>();
        for (ProgressRecord record : found.values()) {
            if (record.grader().equals(grader)) {
                standing.put(record.student(), record);
            } else {
                ProgressRecord.delete(out, record.student());
            }
        }
        long graded = standing.values().stream().filter(record -> record.row().status() == GradeStatus.GRADED).count();
        int other = found.size() - standing.size();
        console.printf(Locale.ROOT, "Continuing the stopped batch in %s: %d of %d already graded%s%n", out, graded, submissions,
                other == 0 ? "." : ", and " + other + " graded by another grader (its hidden tests, grading policy, options or code"
                        + " differ) to grade again.");
        return new Progress(out, submissions, Map.copyOf(standing));
    }

    /**
     * Returns the gradebook row of {@code student}'s finished grade, if it stands for a grade now: the same grader graded
     * student files of the same fingerprint, the submission was graded (not refused), and its report is there.
     */
    Optional<GradebookRow> finished(String student, String grader, String fingerprint) {
        ProgressRecord record = found.get(student);
        boolean stands = record != null && record.row().status() == GradeStatus.GRADED && record.grader().equals(grader)
                && fingerprint.equals(record.fingerprint())
                && Files.isRegularFile(BatchFolder.reports(out, student).resolve(ResultsFile.FILE), LinkOption.NOFOLLOW_LINKS);
        return stands ? Optional.of(record.row()) : Optional.empty();
    }

    /** Takes back {@code student}'s record before their reports are written again: until the new one, there is none. */
    void forget(String student) throws IOException {
        ProgressRecord.delete(out, student);
    }

    /**
     * Records {@code student}'s finished grade, its reports written: a grade or a refusal, never a grade that could not
     * run, and nothing once this JVM has begun to stop.
     */
    void record(GradebookRow row, String grader, String fingerprint) throws IOException {
        if (row.status() == GradeStatus.COULD_NOT_RUN || stopping()) {
            return;
        }
        new ProgressRecord(Fingerprints.FORMAT, grader, fingerprint, row).write(out);
    }

    /** Ends the progress of a batch whose every grade is written: its records go, in one step. */
    void end() throws IOException {
        Path records = BatchFolder.progress(out);
        if (Files.isDirectory(records, LinkOption.NOFOLLOW_LINKS)) {
            Files.move(records, out.resolve(ENDED), StandardCopyOption.ATOMIC_MOVE);
            FileTrees.delete(out.resolve(ENDED));
        }
    }

    /**
     * Whether this JVM has begun to stop (a SIGTERM, SIGINT or SIGHUP, or an exit). Its shutdown hooks end the test JVMs
     * and etcd, so a grade made from here may hold verdicts of tests cut short: it must not be kept. The hooks start
     * only after the JVM has closed its list of hooks, which the probe reads, so a grade that saw them end anything finds
     * the list closed.
     */
    private static boolean stopping() {
        Thread probe = new Thread(() -> { }, "probe for a shutdown");
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException shutdownInProgress) {
            return true;
        }
    }

    private static String names(List<String> students) {
        return students.size() <= 5 ? String.join(", ", students)
                : String.join(", ", students.subList(0, 5)) + " and " + (students.size() - 5) + " more";
    }
}
