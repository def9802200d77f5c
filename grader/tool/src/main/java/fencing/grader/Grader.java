package fencing.grader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import fencing.support.FileTrees;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Grades one submission: compiles its student-owned files, runs the tests in a JVM of their own, and scores the events. */
public final class Grader implements AutoCloseable {

    /**
     * How to grade.
     *
     * @param suite        which tests to run
     * @param includeEtcd  whether tests that need etcd run
     * @param etcdEndpoints the etcd the tests use, when they run
     * @param testTimeout  the limit for one test
     * @param timeLimit    the limit for the whole run
     * @param hidden       directories the tests must not see when grading as root, besides the kit's solutions and catalog
     */
    public record Options(TestSuite suite, boolean includeEtcd, String etcdEndpoints,
                          Duration testTimeout, Duration timeLimit, List<Path> hidden) {

        /** Options that hide nothing beyond the kit's own solutions and catalog. */
        public Options(TestSuite suite, boolean includeEtcd, String etcdEndpoints, Duration testTimeout, Duration timeLimit) {
            this(suite, includeEtcd, etcdEndpoints, testTimeout, timeLimit, List.of());
        }
    }

    private final Options options;
    private final List<TestCase> tests;
    private final List<Path> kitClassPath = TestSuite.classPath();
    private final Sandbox sandbox = Sandbox.forThisMachine();
    private List<Path> childClassPath;

    /** Creates a grader; the tests are discovered once, from the grader's own copy of them, and scored by the grading policy. */
    public Grader(Options options) {
        this.options = options;
        List<TestCase> discovered = options.suite().discover(options.includeEtcd());
        this.tests = options.suite() == TestSuite.HIDDEN ? GradingPolicy.load().apply(discovered) : discovered;
    }

    /** Deletes what the grader prepared for the submissions' JVMs. */
    @Override
    public void close() {
        sandbox.close();
    }

    /** Returns the tests every submission is graded on. */
    public List<TestCase> tests() {
        return tests;
    }

    /**
     * Grades the submission in {@code submission}, in a work directory of its own that is deleted afterwards.
     *
     * @param keyPrefix the etcd key prefix this submission's tests use, so that submissions sharing an etcd never meet
     * @throws IllegalArgumentException if the submission is not laid out like {@code exercises/}
     */
    public Grade grade(Path submission, String keyPrefix) throws IOException, InterruptedException {
        Path workDir = Files.createTempDirectory("fencing-grade-");
        try {
            return grade(submission, workDir, keyPrefix);
        } finally {
            FileTrees.delete(workDir);
        }
    }

    private Grade grade(Path submission, Path workDir, String keyPrefix) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Path classes = workDir.resolve("classes");
        SubmissionCompiler.Result compiled = SubmissionCompiler.compile(submission, classes, kitClassPath);
        String name = submission.toAbsolutePath().normalize().getFileName().toString();
        if (!compiled.ok()) {
            List<TestResult> results = tests.stream()
                    .map(test -> new TestResult(test, false, "not run: the submission did not compile", -1)).toList();
            return new Grade(name, false, compiled.output(), results, List.of(), "", seconds(start));
        }
        List<String> notes = new ArrayList<>();
        if (!compiled.missing().isEmpty()) {
            notes.add("Not in the submission, so graded as the unchanged stubs: " + String.join(", ", compiled.missing()));
        }
        AnswerSheet answers = AnswerSheet.prepare(submission, workDir);
        notes.addAll(answers.notes());
        List<Path> classPath = new ArrayList<>();
        classPath.add(classes);
        classPath.addAll(childClassPath());
        Map<String, String> environment = new HashMap<>(Map.of("ETCD_KEY_PREFIX", keyPrefix,
                AnswerSheet.VARIABLE, answers.copy().toString()));
        if (options.includeEtcd() && options.etcdEndpoints() != null) {
            environment.put("ETCD_ENDPOINTS", options.etcdEndpoints());
        }
        KitFingerprint before = KitFingerprint.of(kitClassPath);
        List<Path> hidden = new ArrayList<>(options.hidden());
        KitLocations.findRoot().ifPresent(root -> hidden.addAll(List.of(KitLocations.solutions(), KitLocations.catalog())));
        ForkedRun run = new ForkedRun(classPath, workDir, environment, options.testTimeout(), options.timeLimit(),
                sandbox, hidden);
        List<TestResult> results = run.run(tests);
        before.requireUnchanged(KitFingerprint.of(kitClassPath), name);
        notes.addAll(run.notes());
        PredictFirst.note(submission).ifPresent(notes::add);
        return new Grade(name, true, "", results, notes, run.lastOutput(), seconds(start), answers.explanations());
    }

    private synchronized List<Path> childClassPath() throws IOException {
        if (childClassPath == null) {
            childClassPath = sandbox.readable(kitClassPath);
        }
        return childClassPath;
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }
}
