package fencing.grader;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * Grades a class: every submission folder of a batch, {@code jobs} at a time, each in its own JVM, work directory
 * and etcd key prefix, and writes every student's reports and the gradebook.
 *
 * <p>No submission stops the batch: one not fit to grade gets a "not graded" report, one the grader could not grade
 * gets a "grading could not run" report and makes the batch end non-zero, so that CI runs it again. Only a
 * submission that changed the grader's own files stops everything, since no later grade could be trusted.
 */
final class ClassBatch {

    /** The exit code of a batch in which some submission could not be graded for a reason of the grader's. */
    static final int SOME_COULD_NOT_RUN = 3;

    private final Grader grader;
    private final int jobs;
    private final PrintStream console;

    ClassBatch(Grader grader, int jobs, PrintStream console) {
        if (jobs < 1) {
            throw new IllegalArgumentException("--jobs must be at least 1, got " + jobs);
        }
        this.grader = grader;
        this.jobs = jobs;
        this.console = console;
    }

    /** Lists the submission folders of {@code batch}: every entry but hidden ones and plain files, links included. */
    static List<Path> submissions(Path batch) throws IOException {
        try (Stream<Path> children = Files.list(batch)) {
            List<Path> found = children.filter(child -> !child.getFileName().toString().startsWith("."))
                    .filter(child -> Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(child))
                    .sorted().toList();
            if (found.isEmpty()) {
                throw new IllegalArgumentException("no submission folders in " + batch.toAbsolutePath());
            }
            return found;
        }
    }

    /** Grades {@code submissions} into {@code out}; returns 0, or {@link #SOME_COULD_NOT_RUN}. */
    int grade(List<Path> submissions, Path out) throws IOException, InterruptedException {
        return grade(submissions, Shard.ALL, out);
    }

    /**
     * Grades the submissions of {@code shard} into {@code out}, and records in {@code batch.json} which shard of which
     * class it graded, so that the shards' gradebooks can be merged; returns 0, or {@link #SOME_COULD_NOT_RUN}.
     */
    int grade(List<Path> all, Shard shard, Path out) throws IOException, InterruptedException {
        List<Path> submissions = all.stream().filter(path -> shard.contains(name(path))).toList();
        long start = System.nanoTime();
        List<Grade> grades = gradeAll(submissions, out);
        double seconds = (System.nanoTime() - start) / 1e9;
        GradeCommand.Gradebook.write(grades, out);
        BatchRecord.write(out, new BatchRecord(shard.toString(), all.stream().map(ClassBatch::name).toList(),
                grades.stream().map(Grade::submission).toList()));
        if (shard.count() > 1) {
            console.printf(Locale.ROOT, "Shard %s: %d of the class's %d submission(s).%n", shard, grades.size(), all.size());
        }
        console.printf(Locale.ROOT, "Graded %d submission(s) in %.1f s with %d job(s): %.1f s per submission. Gradebook: %s%n",
                grades.size(), seconds, jobs, seconds / Math.max(1, grades.size()), out.resolve("gradebook.md"));
        List<Grade> refused = grades.stream().filter(grade -> grade.status() == Grade.Status.NOT_GRADED).toList();
        if (!refused.isEmpty()) {
            console.println("Not graded (score 0; each report says what was found and what was expected):");
            refused.forEach(grade -> console.println("  " + grade.submission() + ": " + firstLine(grade.reason())));
        }
        List<Grade> failed = grades.stream().filter(grade -> grade.status() == Grade.Status.COULD_NOT_RUN).toList();
        if (failed.isEmpty()) {
            return 0;
        }
        console.println("Grading could not run for " + failed.size() + " submission(s): no score; grade them again:");
        failed.forEach(grade -> console.println("  " + grade.submission() + ": " + firstLine(grade.reason())));
        return SOME_COULD_NOT_RUN;
    }

    private List<Grade> gradeAll(List<Path> submissions, Path out) throws IOException, InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(jobs, work -> {
            Thread thread = new Thread(work, "grade");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<Grade>> pending = new ArrayList<>();
            for (Path submission : submissions) {
                pending.add(pool.submit(() -> gradeOne(submission, out)));
            }
            List<Grade> grades = new ArrayList<>();
            for (Future<Grade> future : pending) {
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

    private Grade gradeOne(Path submission, Path out) throws IOException, InterruptedException {
        Grade grade = grader.grade(submission, prefix(submission));
        Reports.write(grade, out.resolve(reportFolder(grade.submission())));
        synchronized (console) {
            console.println(GradeCommand.line(grade));
        }
        return grade;
    }

    /** The folder of a student's reports: the submission's name, made safe to be one path element. */
    static String reportFolder(String submission) {
        String safe = submission.replaceAll("[\\p{Cntrl}/\\\\]", "_");
        return safe.isEmpty() || safe.equals(".") || safe.equals("..") ? "_" + safe : safe;
    }

    static String name(Path submission) {
        return submission.toAbsolutePath().normalize().getFileName().toString();
    }

    static String prefix(Path submission) {
        return "grade/" + reportFolder(submission.toAbsolutePath().normalize().getFileName().toString()) + "-" + UUID.randomUUID();
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElse("");
    }
}
