package fencing.grader;

import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.Grader;
import fencing.grader.pipeline.TestSuite;
import fencing.grader.sandbox.KitFingerprint;
import fencing.grader.sandbox.Sandbox;
import fencing.support.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The grades of the catalog's selected known-wrong, correct and hostile entries: each graded once per JVM, all of them
 * side by side, four at a time per core ({@link #overloadJobs()}), the way an overloaded batch grades a class: one
 * grader, one etcd, each submission in its own JVM, work directory and key prefix.
 *
 * <p>The grades are their own overload: no busy loop takes CPU away from them. Each is held to the record of the
 * catalog's verdicts ({@link CatalogVerdicts}), which a grade on a quiet machine wrote, so one pass proves that no verdict
 * moves under overload, and that none moved since the record was written.
 *
 * <p>The hostile entries are graded without etcd's tests (containment does not depend on etcd, and they stay short).
 * Those that reach for files outside their work directory are graded only as root, where a submission's tests run as
 * {@code nobody}; the one that reaches for the network only where the grader isolates it, against a {@link Bait}:
 * elsewhere they would really do what they attempt.
 */
final class CatalogGrades {

    /**
     * The kinds graded here, in the order they are started: the hostile entries first, since each of them runs to a
     * limit (a CPU budget, a backstop, a JVM that ends and is started again) and so takes several times as long as any
     * other grade; started last, they would be the pass's tail, graded when little else is left to overlap with.
     */
    static final List<String> KINDS = List.of("hostile", "wrong", "correct");
    /** Hostile entries that reach for files outside their work directory: only grading as root can stop them. */
    static final Set<String> NEED_SANDBOX = Set.of("writes-grader-files", "reads-solutions");
    /** The hostile entry that reaches for the network: only a network namespace can stop it. */
    static final String NEEDS_NETWORK_SANDBOX = "reaches-network";

    /**
     * One entry's grade.
     *
     * @param grade       the grade, or empty where the entry was not graded on this machine
     * @param skipped     why it was not graded, or empty
     * @param took        how long its grading took, from its own start
     * @param baitReached how many connections reached the {@link Bait} during its grading, for the network entry
     */
    record Graded(Optional<Grade> grade, String skipped, Duration took, int baitReached) {
    }

    private static Map<Path, Future<Graded>> grades;
    private static ExecutorService pool;
    /** The entries graded again alone, after a grade beside the others could not run. */
    private static final Map<Path, Graded> AGAIN = new java.util.HashMap<>();
    private static KitFingerprint kitBefore;
    private static Grader withoutEtcd;

    private CatalogGrades() {
    }

    /** How many grades run at once under overload: four times as many as cores. */
    static int overloadJobs() {
        return 4 * Runtime.getRuntime().availableProcessors();
    }

    /** Returns every selected entry of every kind, in the order they are graded. */
    static List<Path> entries() {
        return KINDS.stream().flatMap(kind -> CatalogSubmissions.selected(kind).stream()).toList();
    }

    /**
     * Returns the grading of {@code entry}, waiting for it if it is still being graded.
     *
     * <p>A grade that could not run (the machine starved a test to the run's limit: no verdict, the machine's failure, as a
     * batch reports it) is graded again once, alone, after every other catalog grade has ended, as an instructor grades
     * such a submission again; a verdict of either grade is held to the record all the same.
     */
    static Graded of(Path entry) throws InterruptedException, ExecutionException {
        Future<Graded> grade = all().get(entry);
        if (grade == null) {
            throw new IllegalArgumentException("not a selected catalog entry: " + entry);
        }
        Graded graded = grade.get();
        if (graded.grade().isEmpty() || graded.grade().get().status() != Grade.Status.COULD_NOT_RUN) {
            return graded;
        }
        synchronized (AGAIN) {
            Graded again = AGAIN.get(entry);
            if (again == null) {
                pool.awaitTermination(1, java.util.concurrent.TimeUnit.HOURS);
                System.out.println("catalog: " + CatalogVerdicts.key(entry) + " could not be graded beside the others ("
                        + graded.grade().get().reason().lines().findFirst().orElse("") + "); graded again alone");
                Path dir = null;
                try {
                    dir = Files.createTempDirectory("fencing-catalog-again-");
                    again = grade(entry, dir.resolve("submission"));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } finally {
                    if (dir != null) {
                        FileTrees.delete(dir);
                    }
                }
                AGAIN.put(entry, again);
            }
            return again;
        }
    }

    /** Returns the grade of the known-wrong or correct {@code entry}, which is always graded. */
    static Grade gradeOf(Path entry) throws InterruptedException, ExecutionException {
        return of(entry).grade().orElseThrow(() -> new IllegalStateException(entry + " was not graded"));
    }

    /** Returns the kit's own files as they were before the first catalog grade started. */
    static synchronized KitFingerprint kitBefore() {
        all();
        return kitBefore;
    }

    private static synchronized Map<Path, Future<Graded>> all() {
        if (grades == null) {
            kitBefore = KitFingerprint.of(KitClassPath.ofThisJvm());
            grades = start(Integer.getInteger("catalog.jobs", CatalogGrades.overloadJobs()));
        }
        return grades;
    }

    private static Map<Path, Future<Graded>> start(int jobs) {
        pool = Executors.newFixedThreadPool(jobs, work -> {
            Thread thread = new Thread(work, "catalog grading");
            thread.setDaemon(true);
            return thread;
        });
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
        Map<Path, Future<Graded>> started = new LinkedHashMap<>();
        for (Path entry : entries()) {
            Path target = assembled.resolve(CatalogVerdicts.key(entry).replace('/', '-'));
            started.put(entry, pool.submit(() -> grade(entry, target)));
        }
        pool.shutdown();
        return started;
    }

    private static Graded grade(Path entry, Path target) throws IOException, InterruptedException {
        boolean hostile = entry.getParent().getFileName().toString().equals("hostile");
        String name = entry.getFileName().toString();
        if (hostile && NEED_SANDBOX.contains(name) && !Sandbox.forThisMachine().dropsPrivileges()) {
            return skipped(name + " needs grading as root, where a submission's tests run as nobody; run ./kit test as root to check it");
        }
        Bait bait = null;
        if (hostile && NEEDS_NETWORK_SANDBOX.equals(name)) {
            if (!Sandbox.forThisMachine().isolatesNetwork()) {
                return skipped(name + " needs grading as root with unshare and ip, where a submission's tests run without a"
                        + " network; run ./kit test as root to check it");
            }
            bait = Bait.onThisMachinesAddress();
            if (bait == null) {
                return skipped(name + " needs a non-loopback address on this machine to listen on");
            }
        }
        long start = System.nanoTime();
        try (Bait listening = bait) {
            Path submission = CatalogSubmissions.assemble(entry, target);
            if (listening != null) {
                listening.plantIn(submission.resolve("src/main/java/fencing/basics/Resource.java"));
            }
            Grader grader = hostile ? graderWithoutEtcd() : GradingFixtures.grader(TestSuite.HIDDEN);
            Grade grade = grader.grade(submission, "kit-checks/" + UUID.randomUUID());
            return new Graded(Optional.of(grade), "", Duration.ofNanos(System.nanoTime() - start),
                    listening == null ? 0 : listening.connections());
        } finally {
            FileTrees.delete(target);
        }
    }

    private static Graded skipped(String why) {
        return new Graded(Optional.empty(), why, Duration.ZERO, 0);
    }

    /** Returns the grader of the hostile entries: the hidden tests without etcd's. */
    static synchronized Grader graderWithoutEtcd() {
        if (withoutEtcd == null) {
            withoutEtcd = new Grader(new Grader.Options(TestSuite.HIDDEN, false, null));
            Runtime.getRuntime().addShutdownHook(new Thread(withoutEtcd::close, "close the grader without etcd"));
        }
        return withoutEtcd;
    }
}
