package fencing.grader.pipeline;

import java.util.List;

/**
 * A submission's grade: every test's result, or the reason nothing could run.
 *
 * @param submission  the submission's name
 * @param compiled    whether the submission compiled, each student file set aside in the compile step as the kit's
 *                    stub (the notes say which); false only when no test could run
 * @param compilerOutput javac's diagnostics when it did not
 * @param results     one result per test
 * @param notes       what happened during grading, in words a student understands
 * @param lastOutput  the last lines the tests printed
 * @param seconds     how long grading took
 * @param status      whether the submission was graded, refused, or could not be graded for a reason of the grader's
 * @param reason      why it was refused or could not be graded, beginning with "not graded: " or
 *                    "grading could not run: "; empty when it was graded
 * @param explanations the open explanations of {@code ANSWERS.md}, for a person to read
 * @param staffNotes  what only staff may read (whether the predictions were committed first): never in a student's view
 */
public record Grade(String submission, boolean compiled, String compilerOutput, List<TestResult> results,
                    List<String> notes, String lastOutput, double seconds, Status status, String reason,
                    List<Explanation> explanations, List<String> staffNotes) {

    /** What became of a submission. */
    public enum Status {
        /** The tests ran (or the submission did not compile): the score is the student's. */
        GRADED,
        /** The submission is not fit to grade (its layout, a link, a file too large...): it scores 0. */
        NOT_GRADED,
        /** Grading failed for a reason of the grader's own (etcd, the disk, a bug): there is no score. */
        COULD_NOT_RUN
    }

    /** A grade without notes for staff. */
    public Grade(String submission, boolean compiled, String compilerOutput, List<TestResult> results,
                 List<String> notes, String lastOutput, double seconds, Status status, String reason,
                 List<Explanation> explanations) {
        this(submission, compiled, compilerOutput, results, notes, lastOutput, seconds, status, reason, explanations, List.of());
    }

    /** A grade whose tests ran. */
    public Grade(String submission, boolean compiled, String compilerOutput, List<TestResult> results,
                 List<String> notes, String lastOutput, double seconds) {
        this(submission, compiled, compilerOutput, results, notes, lastOutput, seconds, Status.GRADED, "", List.of());
    }

    /** A grade without explanations to read. */
    public Grade(String submission, boolean compiled, String compilerOutput, List<TestResult> results,
                 List<String> notes, String lastOutput, double seconds, Status status, String reason) {
        this(submission, compiled, compilerOutput, results, notes, lastOutput, seconds, status, reason, List.of());
    }

    /** A graded submission's grade, with the explanations of its {@code ANSWERS.md} to read. */
    public Grade(String submission, boolean compiled, String compilerOutput, List<TestResult> results,
                 List<String> notes, String lastOutput, double seconds, List<Explanation> explanations) {
        this(submission, compiled, compilerOutput, results, notes, lastOutput, seconds, Status.GRADED, "", explanations);
    }

    /** Returns how many explanations were written and wait for a person to read them. */
    public long answersToRead() {
        return explanations.stream().filter(Explanation::written).count();
    }

    /** A submission refused before anything ran: score 0 on every test, each saying why. */
    static Grade notGraded(String submission, String why, List<TestCase> tests, double seconds) {
        String reason = "not graded: " + why;
        List<TestResult> results = tests.stream().map(test -> new TestResult(test, false, reason, -1)).toList();
        return new Grade(submission, false, "", results, List.of(), "", seconds, Status.NOT_GRADED, reason);
    }

    /** A submission the grader could not grade for a reason of its own: no score, to be graded again. */
    static Grade couldNotRun(String submission, String why, List<TestCase> tests, double seconds) {
        String reason = "grading could not run: " + why;
        List<TestResult> results = tests.stream().map(test -> new TestResult(test, false, reason, -1)).toList();
        return new Grade(submission, false, "", results, List.of(), "", seconds, Status.COULD_NOT_RUN, reason);
    }

    /** Whether this grade has a score: every status but {@link Status#COULD_NOT_RUN}. */
    public boolean scored() {
        return status != Status.COULD_NOT_RUN;
    }

    /** Returns the points earned. */
    public int score() {
        return results.stream().mapToInt(TestResult::score).sum();
    }

    /** Returns the points available. */
    public int maxScore() {
        return results.stream().mapToInt(result -> result.test().points()).sum();
    }

    /** Returns the tags of failed tests, sorted, without duplicates. */
    public List<String> failedTags() {
        return results.stream().filter(result -> !result.passed())
                .flatMap(result -> result.tags().stream()).distinct().sorted().toList();
    }

    /** Returns the points earned on the core (every test not tagged {@value TestSuite#EXTENSION_TAG}). */
    public int coreScore() {
        return results.stream().filter(result -> !isExtension(result)).mapToInt(TestResult::score).sum();
    }

    /** Returns the points available on the core. */
    public int coreMaxScore() {
        return results.stream().filter(result -> !isExtension(result)).mapToInt(result -> result.test().points()).sum();
    }

    /** Returns the points earned on the extension tasks. */
    public int extensionScore() {
        return results.stream().filter(Grade::isExtension).mapToInt(TestResult::score).sum();
    }

    /** Returns the points available on the extension tasks; 0 when they were not graded. */
    public int extensionMaxScore() {
        return results.stream().filter(Grade::isExtension).mapToInt(result -> result.test().points()).sum();
    }

    private static boolean isExtension(TestResult result) {
        return result.tags().contains(TestSuite.EXTENSION_TAG);
    }
}
