package fencing.grader;

import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.TestSuite;
import fencing.support.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * The grades of the catalog's selected known-wrong and correct entries, graded side by side once per JVM, the way a
 * batch grades a class: one grader, one etcd, each submission in its own JVM, work directory and key prefix.
 *
 * <p>How many run at once is the system property {@code catalog.jobs} (default: twice the cores, since a grade spends
 * much of its time waiting for etcd and for leases to expire). That no grade depends on it is
 * {@link GradeInvarianceTests}' to show.
 */
final class CatalogGrades {

    private static Map<Path, Future<Grade>> grades;
    private static Map<Path, Future<Grade>> overloaded;

    private CatalogGrades() {
    }

    /** Returns the grade of {@code entry}, waiting for it if it is still being graded. */
    static Grade of(Path entry) throws InterruptedException, ExecutionException {
        Future<Grade> grade = all().get(entry);
        if (grade == null) {
            throw new IllegalArgumentException("not a selected catalog entry: " + entry);
        }
        return grade.get();
    }

    /**
     * Returns the grade of {@code entry} from a second grading of the selected entries, once the first has ended: beside a
     * {@link CpuHog}, {@link CpuHog#overloadJobs()} at once. A verdict that differs from the first grading's depends on
     * the machine's load, not on the submission.
     */
    static Grade overloaded(Path entry) throws InterruptedException, ExecutionException {
        Future<Grade> grade = overloadedAll().get(entry);
        if (grade == null) {
            throw new IllegalArgumentException("not a selected catalog entry: " + entry);
        }
        return grade.get();
    }

    private static synchronized Map<Path, Future<Grade>> all() {
        if (grades == null) {
            grades = start(Integer.getInteger("catalog.jobs", 2 * Runtime.getRuntime().availableProcessors()));
        }
        return grades;
    }

    private static synchronized Map<Path, Future<Grade>> overloadedAll() throws InterruptedException, ExecutionException {
        if (overloaded == null) {
            for (Future<Grade> first : all().values()) {
                first.get();
            }
            CpuHog hog;
            try {
                hog = CpuHog.start(Files.createTempFile("fencing-cpu-hog-", ".log").toFile());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the CPU hog", e);
            }
            overloaded = start(CpuHog.overloadJobs());
            Thread stop = new Thread(() -> {
                try {
                    for (Future<Grade> grade : overloaded.values()) {
                        grade.get();
                    }
                } catch (InterruptedException | ExecutionException ignored) {
                    // Whatever became of the grades, the hog stops with them; their failures are the tests' to report.
                } finally {
                    hog.close();
                }
            }, "stop the CPU hog");
            stop.setDaemon(true);
            stop.start();
        }
        return overloaded;
    }

    private static Map<Path, Future<Grade>> start(int jobs) {
        ExecutorService pool = Executors.newFixedThreadPool(jobs, work -> {
            Thread thread = new Thread(work, "catalog grading");
            thread.setDaemon(true);
            return thread;
        });
        Map<Path, Future<Grade>> started = new LinkedHashMap<>();
        Path assembled;
        try {
            assembled = Files.createTempDirectory("fencing-catalog-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            pool.shutdownNow();
            FileTrees.delete(assembled);
        }, "delete the assembled catalog"));
        List<Path> entries = Stream.of("wrong", "correct").flatMap(kind -> CatalogSubmissions.selected(kind).stream()).toList();
        for (Path entry : entries) {
            Path target = assembled.resolve(entry.getParent().getFileName() + "-" + entry.getFileName());
            started.put(entry, pool.submit(() -> grade(entry, target)));
        }
        pool.shutdown();
        return started;
    }

    private static Grade grade(Path entry, Path target) throws IOException, InterruptedException {
        try {
            return GradingFixtures.grader(TestSuite.HIDDEN)
                    .grade(CatalogSubmissions.assemble(entry, target), "kit-checks/" + UUID.randomUUID());
        } finally {
            FileTrees.delete(target);
        }
    }
}
