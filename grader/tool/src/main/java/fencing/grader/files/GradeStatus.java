package fencing.grader.files;

import com.fasterxml.jackson.annotation.JsonProperty;

/** What became of a submission, as the kit's own files record it: graded, refused, or not gradable for the grader's reason. */
public enum GradeStatus {

    /** The tests ran (or the submission did not compile): the score is the student's. */
    @JsonProperty("graded")
    GRADED("graded"),
    /** The submission is not fit to grade: it scores 0. */
    @JsonProperty("not_graded")
    NOT_GRADED("not graded"),
    /** Grading failed for a reason of the grader's own: there is no score. */
    @JsonProperty("could_not_run")
    COULD_NOT_RUN("could not run");

    /** How a refusal's reason begins, in a report's output and in the gradebook's status column. */
    static final String NOT_GRADED_PREFIX = "not graded: ";

    private final String words;

    GradeStatus(String words) {
        this.words = words;
    }

    /** Returns the status as a report's reader reads it: {@code graded}, {@code not graded} or {@code could not run}. */
    public String words() {
        return words;
    }

    /**
     * Returns the status of a grade whose file does not record it: a {@code results.json} written before it did, or a
     * gradebook row, whose status column keeps the reason's text. Only a grade that could not run has no score, and a
     * refusal's text is its reason, which says so first.
     *
     * @param score the score, null when there is none
     * @param text  the grade's overall output, or the gradebook's status column
     */
    static GradeStatus derived(Integer score, String text) {
        if (score == null) {
            return COULD_NOT_RUN;
        }
        return text != null && text.startsWith(NOT_GRADED_PREFIX) ? NOT_GRADED : GRADED;
    }
}
