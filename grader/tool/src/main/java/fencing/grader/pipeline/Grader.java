package fencing.grader.pipeline;

import fencing.grader.KitClassPath;
import fencing.grader.KitLocations;
import fencing.grader.StudentFiles;
import fencing.grader.sandbox.ClassDataArchive;
import fencing.grader.sandbox.KitFingerprint;
import fencing.grader.sandbox.Sandbox;
import fencing.support.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** Grades one submission: compiles its student-owned files, runs the tests in a JVM of their own, and scores the events. */
public final class Grader implements AutoCloseable {

    /**
     * How to grade.
     *
     * @param suite        which tests to run
     * @param includeEtcd  whether tests that need etcd run
     * @param etcdEndpoints the etcd the tests use, when they run
     * @param hidden       directories the tests must not see when grading as root, besides the kit's solutions and catalog
     * @param includeExtensions whether the extension tasks' tests (graded tag {@value TestSuite#EXTENSION_TAG}) run
     */
    public record Options(TestSuite suite, boolean includeEtcd, String etcdEndpoints, List<Path> hidden,
                          boolean includeExtensions) {

        /** Options that grade the extension tasks too. */
        public Options(TestSuite suite, boolean includeEtcd, String etcdEndpoints, List<Path> hidden) {
            this(suite, includeEtcd, etcdEndpoints, hidden, true);
        }

        /** Options that hide nothing beyond the kit's own solutions and catalog. */
        public Options(TestSuite suite, boolean includeEtcd, String etcdEndpoints) {
            this(suite, includeEtcd, etcdEndpoints, List.of());
        }
    }

    /**
     * What became of one submission: its grade, or that an earlier grade of the same files was reused.
     *
     * @param grade        the grade, or null when the earlier one was reused
     * @param fingerprint  what {@link Reuse} said of the student files as read, or null when they were not taken
     * @param studentFiles the student-owned sources and {@code ANSWERS.md} exactly as the intake read them, by path in the
     *                     submission; empty when they were not taken
     */
    public record Outcome(Grade grade, String fingerprint, Map<String, byte[]> studentFiles) {

        /** Whether the earlier grade was reused instead of grading again. */
        public boolean reused() {
            return grade == null;
        }
    }

    /**
     * Decides, once the intake has taken the student files and before anything is compiled, whether an earlier grade of
     * the same files stands (a regrade's question; the pipeline knows nothing of earlier batches).
     */
    @FunctionalInterface
    public interface Reuse {

        /** Never reuses: every submission is graded. */
        Reuse NEVER = (copies, historyNote) -> new Decision(null, false);

        /**
         * Decides for the student files copied into {@code copies} and the git history's note.
         *
         * @throws IOException if the copies cannot be read
         */
        Decision decide(Path copies, Optional<String> historyNote) throws IOException;

        /**
         * A decision.
         *
         * @param fingerprint what identifies the files as read, kept in the outcome
         * @param reuse       whether the earlier grade stands
         */
        record Decision(String fingerprint, boolean reuse) {
        }
    }

    private final Options options;
    private final Path policyFile;
    private final GradingPolicy policy;
    private final List<TestCase> tests;
    private final KitClassPath kitClassPath = KitClassPath.ofThisJvm();

    private final Sandbox sandbox = Sandbox.forThisMachine();
    private final Set<String> provided = SubmissionIntake.providedByKit();
    private ClassDataArchive classData;
    private int expectedGrades = Integer.MAX_VALUE;

    /** Creates a grader; the tests are discovered once, from the grader's own copy of them, and scored by the grading policy. */
    public Grader(Options options) {
        this(options, GradingPolicy.kitFile());
    }

    /**
     * Creates a grader that scores by the grading policy in {@code policyFile} instead of the kit's.
     *
     * @throws GradingPolicy.Invalid if the policy breaks a rule ({@link PolicyRules}), before anything is graded
     */
    public Grader(Options options, Path policyFile) {
        this.options = options;
        this.policyFile = policyFile;
        this.policy = GradingPolicy.load(policyFile);
        List<TestCase> discovered = options.suite().discover(options.includeEtcd());
        // Held to every hidden test, whatever this run leaves out: a policy is good or bad, not good under --no-etcd.
        PolicyRules.require(policyFile, policy, options.suite() == TestSuite.HIDDEN && options.includeEtcd() ? discovered
                : TestSuite.HIDDEN.discover(true));
        List<TestCase> kept = options.includeExtensions() ? discovered
                : discovered.stream().filter(test -> !test.tags().contains(TestSuite.EXTENSION_TAG)).toList();
        this.tests = options.suite() == TestSuite.HIDDEN ? policy.apply(kept) : kept;
    }

    /** Returns the grading policy the reports follow. */
    public GradingPolicy policy() {
        return policy;
    }

    /** Returns the options this grader grades with. */
    public Options options() {
        return options;
    }

    /** Returns the grading policy's file. */
    public Path policyFile() {
        return policyFile;
    }

    /** Returns the grader's class path, by role. */
    public KitClassPath kitClassPath() {
        return kitClassPath;
    }

    /** Deletes what the grader prepared for the submissions' JVMs. */
    @Override
    public void close() {
        ClassDataArchive archive;
        synchronized (this) {
            archive = classData;
        }
        if (archive != null) {
            archive.close();
        }
        sandbox.close();
    }

    /** Returns the tests every submission is graded on. */
    public List<TestCase> tests() {
        return tests;
    }

    /**
     * Grades the submission in {@code submission}, in a work directory of its own that is deleted afterwards.
     *
     * <p>A student file the submission does not hold is graded as the kit's stub: the tests that reach it fail, saying
     * so, and the rest is graded. So is one that does not compile or breaks the contract of its stub ({@link SetAside}).
     * A submission not fit to grade (its layout, a link, a file too large, a class it does not own) gets a grade that
     * says "not graded" and why; a failure of the grader's own (etcd unreachable, the disk, a bug) gets one that says
     * "grading could not run" and has no score. Neither stops a batch; a submission that changed the grader's
     * own files does ({@link KitFingerprint.Changed}).
     *
     * @param keyPrefix the etcd key prefix this submission's tests use, so that submissions sharing an etcd never meet
     */
    public Grade grade(Path submission, String keyPrefix) throws IOException, InterruptedException {
        return grade(submission, keyPrefix, Reuse.NEVER).grade();
    }

    /**
     * Grades {@code submission} as {@link #grade(Path, String)} does, unless {@code reuse} decides that an earlier grade
     * of its student files as read stands: then nothing is compiled or run, and the outcome says the earlier grade is
     * reused. A submission not fit to grade is never reused.
     */
    public Outcome grade(Path submission, String keyPrefix, Reuse reuse) throws IOException, InterruptedException {
        String name = submission.toAbsolutePath().normalize().getFileName().toString();
        long start = System.nanoTime();
        Path workDir = null;
        try {
            workDir = Files.createTempDirectory("fencing-grade-");
            return grade(submission, workDir, keyPrefix, name, start, reuse);
        } catch (IOException | RuntimeException e) {
            if (e instanceof KitFingerprint.Changed changed) {
                throw changed;
            }
            return new Outcome(Grade.couldNotRun(name, describe(e), tests, seconds(start)), null, Map.of());
        } finally {
            if (workDir != null) {
                FileTrees.delete(workDir);
            }
        }
    }

    private Outcome grade(Path submission, Path workDir, String keyPrefix, String name, long start, Reuse reuse)
            throws IOException, InterruptedException {
        SubmissionIntake.Result intake = SubmissionIntake.take(submission,
                workDir.resolve("submission").resolve(StudentFiles.SOURCE_ROOT), provided);
        if (!intake.accepted()) {
            return new Outcome(Grade.notGraded(name, intake.refusal(), tests, seconds(start)), null, Map.of());
        }
        Optional<String> unstubbed = Stubs.fill(intake.sources(), intake.missing());
        if (unstubbed.isPresent()) {
            return new Outcome(Grade.notGraded(name, unstubbed.get(), tests, seconds(start)), null, Map.of());
        }
        Optional<String> history = PredictFirst.note(submission);
        // Read before the tests run: the submission's JVM can write in the work directory.
        Map<String, byte[]> studentFiles = new TreeMap<>();
        for (String path : intake.taken()) {
            studentFiles.put(StudentFiles.SOURCE_ROOT + "/" + path, Files.readAllBytes(intake.sources().resolve(path)));
        }
        Path answers = workDir.resolve("submission").resolve("ANSWERS.md");
        if (Files.isRegularFile(answers, LinkOption.NOFOLLOW_LINKS)) {
            studentFiles.put("ANSWERS.md", Files.readAllBytes(answers));
        }
        Reuse.Decision decision = reuse.decide(workDir.resolve("submission"), history);
        if (decision.reuse()) {
            return new Outcome(null, decision.fingerprint(), studentFiles);
        }
        return new Outcome(graded(workDir, keyPrefix, name, start, intake, history), decision.fingerprint(), studentFiles);
    }

    private Grade graded(Path workDir, String keyPrefix, String name, long start, SubmissionIntake.Result intake,
                         Optional<String> history) throws IOException, InterruptedException {
        Path classes = workDir.resolve("classes");
        SubmissionCompiler.Result compiled = SubmissionCompiler.compile(intake.sources(), intake.taken(), intake.missing(),
                classes, kitClassPath.paths(), Contract.ofStubs(kitClassPath.paths()));
        if (!compiled.ok()) {
            List<TestResult> results = tests.stream()
                    .map(test -> new TestResult(test, false, "not run: the submission did not compile", -1)).toList();
            return new Grade(name, false, compiled.output(), results, List.of(), "", seconds(start));
        }
        if (!compiled.foreign().isEmpty()) {
            return Grade.notGraded(name, "unexpected extra class: a submission may define only the student-owned classes"
                    + " (and classes nested in them), but it also defines " + String.join(", ", compiled.foreign())
                    + ", which could shadow the kit's own classes or a hidden test", tests, seconds(start));
        }
        Optional<String> etcdDown = etcdProblem();
        if (etcdDown.isPresent()) {
            return Grade.couldNotRun(name, etcdDown.get(), tests, seconds(start));
        }
        // Read from the intake's copies: a link in the submission has been refused, never followed.
        AnswerSheet answers = AnswerSheet.prepare(workDir.resolve("submission"), workDir);
        ClassDataArchive classData = classData();
        List<Path> classPath = classData.classPath(classes);
        Map<String, String> environment = new HashMap<>(Map.of("ETCD_KEY_PREFIX", keyPrefix,
                AnswerSheet.VARIABLE, answers.copy().toString()));
        if (options.includeEtcd() && options.etcdEndpoints() != null) {
            environment.put("ETCD_ENDPOINTS", options.etcdEndpoints());
        }
        KitFingerprint before = KitFingerprint.of(kitClassPath);
        List<Path> hidden = new ArrayList<>(options.hidden());
        KitLocations.findRoot().ifPresent(root -> hidden.addAll(List.of(KitLocations.solutions(), KitLocations.catalog())));
        boolean together = SideBySide.enabled() && StaticState.find(classes, compiled.classes(), Grader.class.getClassLoader()).isEmpty();
        // Opened once for every test JVM the grade may start (the classes, the intake's copies, the answer sheet): each
        // run then opens only its own folder, never one where another JVM is writing. One test at a time is always
        // possible, as what a side-by-side run did not finish runs again that way.
        for (String jvm : together ? List.of(SideBySide.TOGETHER, SideBySide.IN_TURN) : List.of(SideBySide.IN_TURN)) {
            Files.createDirectories(workDir.resolve("jvm-" + jvm));
        }
        sandbox.prepare(workDir);
        SideBySide.Outcome run = SideBySide.run(tests, together, policy.limits().run(), jvm -> new ForkedRun(classPath,
                workDir.resolve("jvm-" + jvm), environment, policy.limits(), sandbox, hidden, classData,
                new ClassOrigins(classes, compiled.classes())));
        List<TestResult> results = run.results();
        before.requireUnchanged(KitFingerprint.of(kitClassPath), name);
        etcdDown = etcdProblem();
        if (etcdDown.isPresent()) {
            // The etcd tests failed for want of etcd, not for the student's code: their verdicts mean nothing.
            return Grade.couldNotRun(name, etcdDown.get() + " after the tests ran", tests, seconds(start));
        }
        List<String> notes = new ArrayList<>();
        Stubs.note(intake.missing(), options.includeExtensions() && policy.countExtensions()).ifPresent(notes::add);
        compiled.setAside().stream().map(SetAside::note).forEach(notes::add);
        notes.addAll(answers.notes());
        notes.addAll(run.notes());
        // Whether the predictions came first is the instructor's to judge: it stays out of every student's view.
        return new Grade(name, true, "", results, notes, run.lastOutput(), seconds(start), Grade.Status.GRADED, "",
                answers.explanations(), history.stream().toList());
    }

    private Optional<String> etcdProblem() {
        if (!options.includeEtcd() || options.etcdEndpoints() == null) {
            return Optional.empty();
        }
        return EtcdProbe.problem(options.etcdEndpoints());
    }

    private static String describe(Exception e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        return e instanceof IOException || message.isBlank() ? e.getClass().getSimpleName() + (message.isBlank() ? "" : ": " + message)
                : message;
    }

    /**
     * Tells the grader how many submissions it is about to grade, so that it makes a class data archive for its test
     * JVMs only where that pays ({@link ClassDataArchive#FEWEST_GRADES}); a grader never told makes one.
     */
    public synchronized void expectGrades(int count) {
        expectedGrades = count;
        if (classData != null) {
            classData.expectGrades(count);
        }
    }

    /** Returns the archive of the submissions' JVMs, over the kit's class path made readable to them. */
    private synchronized ClassDataArchive classData() throws IOException {
        if (classData == null) {
            classData = new ClassDataArchive(sandbox.readable(kitClassPath));
            classData.expectGrades(expectedGrades);
        }
        return classData;
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }
}
