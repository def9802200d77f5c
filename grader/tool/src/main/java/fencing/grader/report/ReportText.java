package fencing.grader.report;

import fencing.grader.pipeline.Explanation;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestResult;
import java.util.Locale;

/**
 * The texts every report shares: a test as a student may see it now, the grade's overall output, an explanation for
 * staff, and the one cut every platform's result file makes to a text longer than its limit.
 */
public final class ReportText {

    /** The most characters of one test's output a platform's result file holds. */
    public static final int TEST_OUTPUT_LIMIT = 4_000;
    /**
     * The most characters of a test's message's first line, the rule broken and what was observed: where a report shows
     * that line alone (a JUnit XML failure's {@code message}), a longer one is cut, and the catalog's known-wrong
     * submissions are checked to fail with none longer.
     */
    public static final int FIRST_LINE_LIMIT = 300;
    /** The most characters of a grade's overall output a platform's result file holds. */
    public static final int OUTPUT_LIMIT = 64_000;
    /** How a cut text ends: this, then the number of characters cut. */
    public static final String CUT = "\n… [cut: ";
    /** Room kept at the end of a cut text for the note that says so ({@code "\n… [cut: 2,147,483,647 more characters]"}). */
    private static final int CUT_NOTE_ROOM = 48;

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

    /**
     * Returns a test's message as every report a student or a platform reads holds it: at most {@value
     * #TEST_OUTPUT_LIMIT} characters, the cut said in the text. A submission's own exception messages have no bound, and
     * each platform has a size limit.
     */
    static String testOutput(String message) {
        return capped(message, TEST_OUTPUT_LIMIT);
    }

    /** Returns the first line of {@code message}, cut to {@value #FIRST_LINE_LIMIT} characters (an ellipsis the last). */
    static String firstLine(String message) {
        String first = message.lines().findFirst().orElse("");
        return first.length() <= FIRST_LINE_LIMIT ? first : first.substring(0, FIRST_LINE_LIMIT - 1) + "…";
    }

    /** Returns a grade's overall output (the compiler's errors, the notes) cut to at most {@value #OUTPUT_LIMIT} characters. */
    static String output(String text) {
        return capped(text, OUTPUT_LIMIT);
    }

    /** Returns {@code text} cut to at most {@code limit} characters, the last of them saying how many were cut. */
    private static String capped(String text, int limit) {
        if (text.length() <= limit) {
            return text;
        }
        int kept = limit - CUT_NOTE_ROOM;
        if (Character.isHighSurrogate(text.charAt(kept - 1))) {
            kept--;
        }
        return text.substring(0, kept) + CUT + String.format(Locale.ROOT, "%,d more characters]", text.length() - kept);
    }
}
