package fencing.grader.pipeline;

import java.util.List;

/**
 * One open explanation from {@code ANSWERS.md}, passed on for a person to read with the rubric.
 *
 * @param number         the question's number
 * @param question       the question's title
 * @param text           what the student wrote; empty when nothing was
 * @param rubric         what a person looks for
 * @param figureProblems the quoted figures that do not match the submission's {@code evidence.json}
 */
public record Explanation(int number, String question, String text, String rubric, List<String> figureProblems) {

    /** Whether the student wrote an explanation, so that a person has something to read. */
    public boolean written() {
        return !text.isBlank();
    }
}
