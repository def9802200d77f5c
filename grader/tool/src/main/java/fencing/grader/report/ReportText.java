package fencing.grader.report;

import fencing.grader.pipeline.Explanation;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestResult;
import java.util.Locale;

/** The texts every report shares: a test as a student may see it now, the grade's overall output, an explanation for staff. */
final class ReportText {

    private ReportText() {
    }

    /** Returns the test's name, or, when the policy does not show it yet, the properties it grades and when it shows. */
    static String shownName(TestResult result, GradingPolicy policy) {
        GradingPolicy.Visibility visibility = policy.visibility(result.test());
        return visibility.shownNow() ? result.test().name()
                : "(a test of " + String.join(", ", result.tags()) + ": shown " + visibility.gradescope().replace('_', ' ') + ")";
    }

    /** Returns the test's message, or nothing when the policy does not show the test yet. */
    static String shownMessage(TestResult result, GradingPolicy policy) {
        return policy.visibility(result.test()).shownNow() ? result.message() : "";
    }

    /** Returns what a grade says as a whole: why it was not graded, the compiler's errors, or the score and the notes. */
    static String overall(Grade grade) {
        if (grade.status() != Grade.Status.GRADED) {
            return grade.reason();
        }
        if (!grade.compiled()) {
            return "Compilation failed\n" + grade.compilerOutput();
        }
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "Score: %d / %d", grade.score(), grade.maxScore()));
        long failed = grade.results().stream().filter(result -> !result.passed()).count();
        text.append(failed == 0 ? " — every graded test passed." : " — " + failed + " graded test(s) failed.");
        for (String note : grade.notes()) {
            text.append('\n').append(note);
        }
        return text.toString();
    }

    /** Returns an explanation as staff read it: the student's text, the rubric, and figures that do not match. */
    static String forStaff(Explanation explanation) {
        StringBuilder text = new StringBuilder();
        text.append(explanation.written() ? explanation.text().strip()
                : "Not answered yet: no explanation written (the template's placeholder is still there, or nothing"
                        + " follows Explanation:).");
        text.append("\n\nRubric: ").append(explanation.rubric());
        if (!explanation.figureProblems().isEmpty()) {
            text.append("\n\nFigures that do not match the submission's evidence.json:\n- ")
                    .append(String.join("\n- ", explanation.figureProblems()));
        }
        return text.toString();
    }

    /** Returns {@code text} cut to at most {@code limit} characters, saying so. */
    static String capped(String text, int limit) {
        return text.length() <= limit ? text : text.substring(0, limit) + "\n… (" + (text.length() - limit) + " more characters cut)";
    }
}
