package fencing.grader.classpage;

import fencing.grader.files.ResultsFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The open explanations of a class's {@code ANSWERS.md}, grouped by question, so that a marker reads one question for
 * the whole class in one place. They come from {@code results.json}'s {@code extra_data}, where the grader keeps them
 * for staff.
 */
final class Explanations {

    /**
     * One question.
     *
     * @param number     its number in {@code ANSWERS.md}
     * @param title      its title
     * @param rubric     what a person looks for
     * @param answers    the written explanations, in gradebook order
     * @param unanswered the graded students who wrote none
     */
    record Question(int number, String title, String rubric, List<Answer> answers, List<String> unanswered) {
    }

    /**
     * One student's explanation.
     *
     * @param student        the student
     * @param text           what they wrote
     * @param figureProblems the figures they quoted that do not match their {@code evidence.json}
     */
    record Answer(String student, String text, List<String> figureProblems) {
    }

    private Explanations() {
    }

    /** The questions, by number, over the graded students. */
    static List<Question> of(List<ClassRecords.Student> graded) {
        Map<Integer, String> titles = new TreeMap<>();
        Map<Integer, String> rubrics = new TreeMap<>();
        Map<Integer, List<Answer>> answers = new TreeMap<>();
        Map<Integer, List<String>> unanswered = new TreeMap<>();
        for (ClassRecords.Student student : graded) {
            if (student.results() == null) {
                continue;
            }
            for (ResultsFile.Explanation explanation : student.results().explanations()) {
                int number = explanation.number();
                titles.putIfAbsent(number, explanation.question());
                rubrics.putIfAbsent(number, explanation.rubric());
                answers.putIfAbsent(number, new ArrayList<>());
                unanswered.putIfAbsent(number, new ArrayList<>());
                String text = explanation.text().strip();
                if (text.isEmpty()) {
                    unanswered.get(number).add(student.name());
                } else {
                    answers.get(number).add(new Answer(student.name(), text,
                            explanation.figureProblems()));
                }
            }
        }
        List<Question> questions = new ArrayList<>();
        titles.forEach((number, title) -> questions.add(new Question(number, title, rubrics.get(number), List.copyOf(answers.get(number)),
                List.copyOf(unanswered.get(number)))));
        return questions;
    }
}
