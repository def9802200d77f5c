package fencing.grader.report;

import fencing.grader.files.GradeStatus;
import fencing.grader.files.ResultsFile;
import fencing.grader.pipeline.Explanation;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code results.json} in Gradescope's autograder format, which is also the kit's own: every other report and the
 * gradebook agree with it. Each test carries the policy's visibility, which Gradescope enforces.
 *
 * <p>Gradescope hides a student's total while any test is hidden from them, so the explanations for staff are no
 * hidden tests: they are kept in the top-level {@code extra_data} (stored with the submission, never shown to students;
 * the class page reads them there), and become zero-point entries only when the policy shows them to students; the
 * notes for staff ({@link Grade#staffNotes()}) are kept there too, and never shown. Every
 * output is plain text ({@code output_format}), so that {@code List<String>} in a compiler's error is shown as
 * written, and cut to the platforms' one limit ({@link ReportText#testOutput}).
 */
public final class GradescopeResults {

    /** Its file name. */
    public static final String FILE = ResultsFile.FILE;
    /** The key of {@code extra_data} that holds the explanations for staff. */
    public static final String EXPLANATIONS = ResultsFile.EXPLANATIONS;
    /** The key of {@code extra_data} that holds the notes for staff (whether the predictions were committed first). */
    public static final String STAFF_NOTES = ResultsFile.STAFF_NOTES;

    private static final String TEXT = "text";

    private GradescopeResults() {
    }

    /** Returns the results of {@code grade} as {@code results.json}'s text, each test visible as the policy says. */
    public static String json(Grade grade, GradingPolicy policy) throws IOException {
        return of(grade, policy).json();
    }

    /** Returns the results of {@code grade}, each test visible as the policy says. */
    public static ResultsFile of(Grade grade, GradingPolicy policy) {
        List<ResultsFile.Test> tests = new ArrayList<>();
        for (TestResult result : grade.scored() ? grade.results() : List.<TestResult>of()) {
            tests.add(new ResultsFile.Test(result.test().name(), result.score(), result.test().points(),
                    ResultsFile.Verdict.of(result.passed()), ReportText.testOutput(result.message()), TEXT, result.tags(),
                    policy.visibility(result.test()).gradescope()));
        }
        if (policy.explanations() != GradingPolicy.Visibility.HIDDEN) {
            for (Explanation explanation : grade.explanations()) {
                tests.add(explanationEntry(explanation, policy));
            }
        }
        // A grade that could not run has no score: Gradescope then fails the run, and CI retries it.
        // run_autograder's own output is for staff only: it prints the explanations to read there.
        return new ResultsFile(grade.scored() ? grade.score() : null, grade.maxScore(), ReportText.output(ReportText.overall(grade)),
                TEXT, "visible", "hidden", tests,
                new ResultsFile.Extra(grade.explanations().stream().map(GradescopeResults::forStaff).toList(), grade.staffNotes()),
                status(grade));
    }

    /** Returns what became of {@code grade}, as the kit's files record it. */
    public static GradeStatus status(Grade grade) {
        return switch (grade.status()) {
            case GRADED -> GradeStatus.GRADED;
            case NOT_GRADED -> GradeStatus.NOT_GRADED;
            case COULD_NOT_RUN -> GradeStatus.COULD_NOT_RUN;
        };
    }

    /** An explanation as {@code extra_data} keeps it for staff: the student's text whole, with the rubric to read it by. */
    private static ResultsFile.Explanation forStaff(Explanation explanation) {
        return new ResultsFile.Explanation(explanation.number(), explanation.question(), explanation.text().strip(),
                explanation.rubric(), explanation.figureProblems());
    }

    /** A zero-point entry that passes an explanation on to staff, with the rubric to read it by. */
    private static ResultsFile.Test explanationEntry(Explanation explanation, GradingPolicy policy) {
        return new ResultsFile.Test("ANSWERS.md question " + explanation.number() + ": " + explanation.question()
                + " (explanation, for staff)", 0, 0, ResultsFile.Verdict.of(explanation.written()),
                ReportText.testOutput(ReportText.forStaff(explanation)), TEXT, List.of("reasoning", ResultsFile.Test.EXPLANATION_TAG),
                policy.explanations().gradescope());
    }
}
