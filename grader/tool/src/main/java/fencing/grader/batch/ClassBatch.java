package fencing.grader.batch;

import fencing.grader.classpage.ClassPage;
import fencing.grader.classpage.KeptFiles;
import fencing.grader.files.BatchFolder;
import fencing.grader.files.BatchRecord;
import fencing.grader.files.GradebookRow;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.Grader;
import fencing.grader.report.ConsoleLine;
import fencing.grader.report.Platform;
import fencing.grader.report.Reports;
import fencing.support.FileTrees;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Grades a class: every submission folder of a batch, {@code jobs} at a time, each in its own JVM, work directory
 * and etcd key prefix, and writes every student's reports and the gradebook.
 *
 * <p>No submission stops the batch: one not fit to grade gets a "not graded" report, one the grader could not grade
 * gets a "grading could not run" report and makes the batch end non-zero, so that CI runs it again. Only a
 * submission that changed the grader's own files stops everything, since no later grade could be trusted.
 *
 * <p>A regrade since an earlier batch takes over the reports of each submission whose student files and grader are
 * unchanged (by their fingerprints in {@code batch.json}) instead of grading it again, and reports what changed.
 *
 * <p>Each finished grade is recorded as soon as its reports are written ({@link Progress}), so a batch stopped part-way
 * and run again over the same output folder keeps what it had finished and grades only the rest.
 */
public final class ClassBatch {

    /** The exit code of a batch in which some submission could not be graded for a reason of the grader's. */
    public static final int SOME_COULD_NOT_RUN = 3;

    private final Grader grader;
    private final int jobs;
    private final PrintStream console;
    private final double similarityThreshold;

    public ClassBatch(Grader grader, int jobs, PrintStream console) {
        this(grader, jobs, console, ClassPage.DEFAULT_THRESHOLD);
    }

    /** A batch whose class page lists the pairs of submissions at least {@code similarityThreshold} percent similar. */
    public ClassBatch(Grader grader, int jobs, PrintStream console, double similarityThreshold) {
        if (jobs < 1) {
            throw new IllegalArgumentException("--jobs must be at least 1, got " + jobs);
        }
        this.grader = grader;
        this.jobs = jobs;
        this.console = console;
        this.similarityThreshold = similarityThreshold;
    }

    /** Grades {@code submissions} into {@code out}; returns 0, or {@link #SOME_COULD_NOT_RUN}. */
    public int grade(List<Path> submissions, Path out) throws IOException, InterruptedException {
        return grade(submissions, Shard.ALL, out);
    }

    /**
     * Grades the submissions of {@code shard} into {@code out}, and records in {@code batch.json} which shard of which
     * class it graded, so that the shards' gradebooks can be merged; returns 0, or {@link #SOME_COULD_NOT_RUN}.
     */
    public int grade(List<Path> all, Shard shard, Path out) throws IOException, InterruptedException {
        return grade(all, shard, out, null);
    }

    /**
     * Grades as {@link #grade(List, Shard, Path)} does; with an earlier batch {@code since}, reuses the grade of each
     * submission whose student files and grader are unchanged since, and writes {@code regrade.md} and
     * {@code regrade.csv}.
     */
    public int grade(List<Path> all, Shard shard, Path out, PreviousBatch since) throws IOException, InterruptedException {
        return grade(all, shard, out, since, Progress.open(out, all, shard));
    }

    /**
     * Grades as {@link #grade(List, Shard, Path, PreviousBatch)} does, into {@code out} as {@code stopped} found it: a
     * stopped batch there is continued, each of its finished grades kept whose fingerprints still match.
     */
    public int grade(List<Path> all, Shard shard, Path out, PreviousBatch since, Progress stopped)
            throws IOException, InterruptedException {
        List<Path> submissions = all.stream().filter(path -> shard.contains(BatchFolder.student(path))).toList();
        String graderPrint = Fingerprints.grader(grader.options(), grader.policyFile(), grader.tests(), grader.kitClassPath());
        if (since != null) {
            console.println(since.sameGrader(graderPrint)
                    ? "Regrading since " + since.dir() + ": same grader, so a submission whose student files are unchanged keeps its result."
                    : "Regrading since " + since.dir() + ": the grader changed (hidden tests, grading policy, options or code),"
                    + " so every submission is graded again.");
        }
        Progress progress = stopped.begin(graderPrint, console);
        // At most this many: a regrade's reused grades and a resumed batch's finished ones start no JVM.
        grader.expectGrades(submissions.size());
        long start = System.nanoTime();
        List<Entry> entries = gradeAll(submissions, out, since, graderPrint, progress);
        double seconds = (System.nanoTime() - start) / 1e9;
        List<String> reused = entries.stream().filter(Entry::fromEarlier).map(Entry::student).toList();
        Gradebook.write(entries.stream().map(Entry::row).toList(), reused, out);
        Map<String, String> fingerprints = new TreeMap<>();
        entries.stream().filter(entry -> entry.outcome().fingerprint() != null
                        && (entry.outcome().reused() || entry.outcome().grade().status() == Grade.Status.GRADED))
                .forEach(entry -> fingerprints.put(entry.student(), entry.outcome().fingerprint()));
        List<String> students = all.stream().map(BatchFolder::student).toList();
        List<String> graded = entries.stream().map(Entry::student).toList();
        BatchRecord.write(out, new BatchRecord(shard.toString(), students, graded, Fingerprints.FORMAT, graderPrint, fingerprints, reused));
        if (shard.count() > 1) {
            console.printf(Locale.ROOT, "Shard %s: %d of the class's %d submission(s).%n", shard, entries.size(), all.size());
        }
        console.printf(Locale.ROOT, "Graded %d submission(s) in %.1f s with %d job(s): %.1f s per submission. Gradebook: %s%n",
                entries.size(), seconds, jobs, seconds / Math.max(1, entries.size()), out.resolve(BatchFolder.GRADEBOOK_MD));
        if (since != null) {
            List<String> changed = RegradeReport.write(since, out, graded, Set.copyOf(reused), since.sameGrader(graderPrint), students);
            console.printf(Locale.ROOT, "Reused %d, graded again %d; changed since the earlier batch: %s. Regrade: %s%n",
                    reused.size(), entries.size() - reused.size(), changed.isEmpty() ? "nobody" : String.join(", ", changed),
                    out.resolve(BatchFolder.REGRADE_MD));
        }
        // One page and one similarity report over the whole class: a shard's part of it is the merge's to write.
        console.println(shard.count() > 1 ? "The class page (gradebook.html) and the similarity over the whole class are written by"
                + " ./kit gradebook merge." : ClassPage.write(out, similarityThreshold));
        List<Grade> grades = entries.stream().filter(entry -> !entry.outcome().reused()).map(entry -> entry.outcome().grade()).toList();
        List<Grade> refused = grades.stream().filter(grade -> grade.status() == Grade.Status.NOT_GRADED).toList();
        if (!refused.isEmpty()) {
            console.println("Not graded (score 0; each report says what was found and what was expected):");
            refused.forEach(grade -> console.println("  " + grade.submission() + ": " + firstLine(grade.reason())));
        }
        List<Grade> failed = grades.stream().filter(grade -> grade.status() == Grade.Status.COULD_NOT_RUN).toList();
        if (failed.isEmpty()) {
            progress.end();
            return 0;
        }
        console.println("Grading could not run for " + failed.size() + " submission(s): no score; grade them again:");
        failed.forEach(grade -> console.println("  " + grade.submission() + ": " + firstLine(grade.reason())));
        return SOME_COULD_NOT_RUN;
    }

    private List<Entry> gradeAll(List<Path> submissions, Path out, PreviousBatch since, String graderPrint, Progress progress)
            throws IOException, InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(jobs, work -> {
            Thread thread = new Thread(work, "grade");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<Entry>> pending = new ArrayList<>();
            for (Path submission : submissions) {
                pending.add(pool.submit(() -> gradeOne(submission, out, since, graderPrint, progress)));
            }
            List<Entry> grades = new ArrayList<>();
            for (Future<Entry> future : pending) {
                try {
                    grades.add(future.get());
                } catch (ExecutionException e) {
                    pool.shutdownNow();
                    if (e.getCause() instanceof IOException io) {
                        throw io;
                    }
                    if (e.getCause() instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
            return grades;
        } finally {
            pool.shutdownNow();
        }
    }

    private Entry gradeOne(Path submission, Path out, PreviousBatch since, String graderPrint, Progress progress)
            throws IOException, InterruptedException {
        String student = BatchFolder.student(submission);
        Path reports = BatchFolder.reports(out, student);
        AtomicReference<GradebookRow> continued = new AtomicReference<>();
        Grader.Outcome outcome = grader.grade(submission, BatchFolder.keyPrefix(submission), (copies, history) -> {
            String fingerprint = Fingerprints.submission(copies, history);
            progress.finished(student, graderPrint, fingerprint).ifPresent(continued::set);
            return new Grader.Reuse.Decision(fingerprint, continued.get() != null
                    || since != null && since.reusable(student, graderPrint, fingerprint));
        });
        boolean fromEarlier = outcome.reused() && since != null && since.reusable(student, graderPrint, outcome.fingerprint());
        if (continued.get() != null) {
            // Graded by this batch before it stopped: its reports and kept files stand as they were written.
            print(String.format(Locale.ROOT, "%-24s continued: already graded in this folder, same student files and grader", student));
            return new Entry(student, outcome, continued.get(), fromEarlier);
        }
        progress.forget(student);
        GradebookRow row;
        if (outcome.reused()) {
            // The earlier reports stand as they were: the same files graded by the same grader.
            FileTrees.delete(reports);
            FileTrees.copy(since.report(student), reports);
            print(String.format(Locale.ROOT, "%-24s reused: same student files and grader as in %s", student, since.dir()));
            row = since.row(student);
        } else {
            report(outcome.grade(), reports, Set.of(), Map.of(), "");
            row = Gradebook.row(outcome.grade());
        }
        if (outcome.reused() || outcome.grade().status() == Grade.Status.GRADED) {
            // The class page compares the class again from these, after a merge or a regrade too.
            KeptFiles.write(reports, outcome.studentFiles());
        }
        progress.record(row, graderPrint, outcome.fingerprint());
        return new Entry(student, outcome, row, fromEarlier);
    }

    /**
     * Grades one submission on its own: writes its reports into {@code reports} (with {@code platforms}' own files) and
     * prints its line, as each student of a batch gets; returns its grade.
     */
    public Grade gradeOne(Path submission, Path reports, Set<Platform> platforms, Map<String, String> environment)
            throws IOException, InterruptedException {
        grader.expectGrades(1);
        Grade grade = grader.grade(submission, BatchFolder.keyPrefix(submission));
        report(grade, reports, platforms, environment, "  →  " + reports.resolve(Reports.SUMMARY));
        return grade;
    }

    private void report(Grade grade, Path reports, Set<Platform> platforms, Map<String, String> environment, String suffix)
            throws IOException {
        Reports.write(grade, reports, grader.policy(), platforms, environment);
        print(ConsoleLine.of(grade) + suffix);
    }

    private void print(String line) {
        synchronized (console) {
            console.println(line);
        }
    }

    /**
     * A submission's name and what became of it.
     *
     * @param row         its gradebook row
     * @param fromEarlier whether its grade is the one of the earlier batch of {@code --since}
     */
    private record Entry(String student, Grader.Outcome outcome, GradebookRow row, boolean fromEarlier) {
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElse("");
    }
}
