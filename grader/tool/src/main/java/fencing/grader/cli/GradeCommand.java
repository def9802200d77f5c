package fencing.grader.cli;

import fencing.grader.batch.ClassBatch;
import fencing.grader.batch.PreviousBatch;
import fencing.grader.batch.Progress;
import fencing.grader.batch.Shard;
import fencing.grader.classpage.ClassPage;
import fencing.grader.files.BatchFolder;
import fencing.grader.files.SubmissionFolders;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.Grader;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestSuite;
import fencing.grader.report.Platform;
import fencing.support.Etcd;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The grading tool: {@code grade SUBMISSION [--out DIR]}, or {@code grade --batch DIR --out OUT} for a class. */
@Command(name = "grade", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Grades a submission laid out like exercises/ (src/main/java/fencing/...).",
                "Only the student-owned files are taken from it; everything else comes from the kit.",
                "Writes results.json (Gradescope format), summary.md (the student's), staff-notes.md (the staff's)",
                "and junit/*.xml."})
public final class GradeCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "SUBMISSION", description = "The submission directory.")
    private Path submission;

    @Option(names = "--batch", paramLabel = "DIR", description = "Grade every submission folder in DIR (one per student).")
    private Path batch;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the reports go (default: build/grade/<submission>, or build/gradebook"
            + " for a batch). A batch stopped part-way there is continued: its finished grades are kept, the rest graded.")
    private Path out;

    @Option(names = "--suite", defaultValue = "hidden", paramLabel = "hidden|public",
            description = "Which tests to run (default: ${DEFAULT-VALUE}).")
    private String suite;

    @Option(names = "--no-etcd", description = "Skip the tests that need a real etcd.")
    private boolean noEtcd;

    // Twice the cores: a grade spends about half its time waiting (for etcd, for a lease to expire), and on 2 cores
    // 4 at once grade a batch of solutions 20-25 % faster than 2 at once, while 6 at once are slower again.
    @Option(names = "--jobs", paramLabel = "N", description = "Grade N submissions of a batch side by side, each in its"
            + " own JVM (default: twice the number of cores, ${DEFAULT-VALUE} here).")
    private int jobs = 2 * Runtime.getRuntime().availableProcessors();

    @Option(names = "--shard", paramLabel = "I/N", description = "Grade only the I-th of N stable parts of the batch"
            + " (by a hash of each folder's name); ./kit gradebook merge joins the parts' gradebooks.")
    private String shard;

    @Option(names = "--since", paramLabel = "OLD", description = "Regrade: reuse the results in OLD (the --out of an earlier"
            + " batch, or of one stopped part-way) of each submission whose student files and grader are unchanged, grade the rest, and write regrade.md"
            + " and regrade.csv: each student's old and new score, the delta and the tests that changed verdict.")
    private Path since;

    @Option(names = "--policy", paramLabel = "FILE", description = "Score by this grading policy instead of the kit's"
            + " grader/grading-policy.yml (to try a change of points before making it). A policy that breaks a rule is"
            + " refused, exit 2, as ./kit policy refuses it.")
    private Path policy;

    @Option(names = "--platform", paramLabel = "classroom50|prairielearn|artemis", description = "Also write this platform's own"
            + " result file, into OUT/<platform>/ (one submission only; Classroom 50's needs its runner's variables"
            + " CLASSROOM, ASSIGNMENT, SUBMISSION_TAG, COMMIT_URL, RELEASE_URL).")
    private List<String> platformNames = new ArrayList<>();

    private Set<Platform> platforms = Set.of();

    @Option(names = "--similarity-threshold", paramLabel = "PERCENT", description = "List on the class page and in similarity.csv"
            + " the pairs of submissions whose JPlag average similarity is at least PERCENT (default: ${DEFAULT-VALUE})."
            + " Similarity never changes a score.")
    private double similarityThreshold = ClassPage.DEFAULT_THRESHOLD;

    @Option(names = "--no-extensions", description = "Grade the core alone: leave out the extension tasks' tests (tag extension).")
    private boolean noExtensions;

    /** Exit code of bad usage (an unknown option, a value out of range, a submission that is no folder): picocli's own. */
    public static final int BAD_USAGE = CommandLine.ExitCode.USAGE;

    /**
     * Exit code of a configuration error, a grading policy that breaks a rule: the same as bad usage, as running again
     * cannot mend it, where CI grades again on {@link ClassBatch#SOME_COULD_NOT_RUN}.
     */
    public static final int CONFIGURATION_ERROR = BAD_USAGE;

    /**
     * Runs the grading tool. Exits 0 when every submission got a grade (whatever the score, a submission not fit to grade
     * included), {@value #BAD_USAGE} for bad usage and {@value #CONFIGURATION_ERROR} for a grading policy that breaks a
     * rule, both before anything is graded, and 3 ({@link ClassBatch#SOME_COULD_NOT_RUN}) when grading could not run for
     * at least one submission, whatever the cause: etcd, the disk, the grader itself.
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the grading tool with {@code args} and returns its exit code. */
    public static int run(String... args) {
        CommandLine line = new CommandLine(new GradeCommand());
        line.setCaseInsensitiveEnumValuesAllowed(true);
        // Whatever fails once the command line is understood (no etcd to be had, the disk) is the grader's failure.
        line.setExecutionExceptionHandler((error, commandLine, parsed) -> {
            if (error instanceof GradingPolicy.Invalid invalid) {
                commandLine.getErr().println("grade: " + invalid.getMessage());
                return CONFIGURATION_ERROR;
            }
            commandLine.getErr().println("grade: grading could not run: " + error.getMessage());
            return ClassBatch.SOME_COULD_NOT_RUN;
        });
        return line.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        if ((submission == null) == (batch == null)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "give either SUBMISSION or --batch DIR, not both and not neither");
        }
        TestSuite tests = switch (suite.toLowerCase(Locale.ROOT)) {
            case "hidden" -> TestSuite.HIDDEN;
            case "public" -> TestSuite.PUBLIC;
            default -> throw new CommandLine.ParameterException(new CommandLine(this), "--suite must be hidden or public, got " + suite);
        };
        if (jobs < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--jobs must be at least 1, got " + jobs);
        }
        platforms = platforms(platformNames);
        if (!platforms.isEmpty() && batch != null) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--platform writes one submission's platform"
                    + " result: give SUBMISSION, not --batch");
        }
        if (!ClassPage.validThreshold(similarityThreshold)) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--similarity-threshold is a percentage from 0 to 100, got " + similarityThreshold);
        }
        if (shard != null && batch == null) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--shard cuts a batch: give --batch DIR");
        }
        Shard selected;
        try {
            selected = shard == null ? Shard.ALL : Shard.parse(shard);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
        }
        Path batchOut = out != null ? out : Path.of("build", "gradebook");
        PreviousBatch previous = since == null ? null : previous(since, batchOut);
        if (policy != null && !Files.isRegularFile(policy)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--policy " + policy + ": no such file");
        }
        Path policyFile = policy != null ? policy : GradingPolicy.kitFile();
        // Read once here, so that a policy file that is not one is refused before an etcd starts; the grader holds it to
        // the rules that need the tests.
        GradingPolicy.load(policyFile);
        List<Path> submissions = batch == null ? List.of(requireDirectory(submission)) : SubmissionFolders.list(requireDirectory(batch));
        Progress progress = batch == null ? null : progress(batchOut, submissions, selected);
        Etcd etcd = noEtcd ? null : Etcd.provide();
        try {
            try (Grader grader = new Grader(new Grader.Options(tests, !noEtcd, etcd == null ? null : etcd.endpoints(),
                    // In a batch, no student's tests may read another student's submission.
                    batch == null ? List.of() : List.of(batch.toAbsolutePath()), !noExtensions), policyFile)) {
                return batch == null ? gradeOne(grader)
                        : new ClassBatch(grader, jobs, System.out, similarityThreshold).grade(submissions, selected, batchOut,
                                previous, progress);
            }
        } finally {
            if (etcd != null) {
                etcd.close();
            }
        }
    }

    private int gradeOne(Grader grader) throws IOException, InterruptedException {
        Path dir = out != null ? out : Path.of("build", "grade", BatchFolder.student(submission));
        Grade grade = new ClassBatch(grader, 1, System.out).gradeOne(submission, dir, platforms, System.getenv());
        if (grade.status() != Grade.Status.GRADED) {
            System.out.println(grade.reason());
        } else if (!grade.compiled()) {
            System.out.println("Compilation failed:\n" + grade.compilerOutput());
        }
        return grade.status() == Grade.Status.COULD_NOT_RUN ? ClassBatch.SOME_COULD_NOT_RUN : 0;
    }

    /** Returns the platforms {@code names} names, refusing an unknown one or one whose variables are missing. */
    private Set<Platform> platforms(List<String> names) {
        Set<Platform> chosen = EnumSet.noneOf(Platform.class);
        for (String name : names) {
            Platform platform = Arrays.stream(Platform.values()).filter(known -> known.id().equalsIgnoreCase(name)).findFirst()
                    .orElseThrow(() -> new CommandLine.ParameterException(new CommandLine(this), "--platform " + name
                            + ": not a platform the grader writes for; give classroom50, prairielearn or artemis"));
            List<String> missing = platform.missing(System.getenv());
            if (!missing.isEmpty()) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--platform " + platform.id()
                        + " names the submission by its runner's environment, which lacks " + String.join(", ", missing));
            }
            chosen.add(platform);
        }
        return chosen;
    }

    /** Reads the earlier batch of {@code --since}, refusing it before anything is graded or written. */
    private PreviousBatch previous(Path old, Path target) throws IOException {
        if (batch == null) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--since compares two batches: give --batch DIR");
        }
        Path oldDir = old.toAbsolutePath().normalize();
        if (target.toAbsolutePath().normalize().startsWith(oldDir)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--since " + old + " and --out " + target
                    + ": the new batch must go to a folder of its own, outside the earlier one");
        }
        try {
            return PreviousBatch.read(old);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
        }
    }

    /** Reads what {@code target} holds of a batch run before, refusing it before anything is graded or written. */
    private Progress progress(Path target, List<Path> submissions, Shard selected) throws IOException {
        try {
            return Progress.open(target, submissions, selected);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
        }
    }

    private Path requireDirectory(Path path) {
        if (!Files.isDirectory(path)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "not a directory: " + path.toAbsolutePath());
        }
        return path;
    }
}
