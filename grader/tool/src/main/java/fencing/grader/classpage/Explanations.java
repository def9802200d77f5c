package fencing.grader.classpage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The open explanations of a class's {@code ANSWERS.md}, grouped by question, so that a marker reads one question for
 * the whole class in one place. They come from the zero-point entries {@code results.json} passes them on to staff in.
 */
final class Explanations {

    /** The name {@code results.json} gives an explanation's entry: {@code ANSWERS.md question N: TITLE (explanation, for staff)}. */
    private static final Pattern NAME = Pattern.compile("ANSWERS\\.md question (\\d+): (.*) \\(explanation, for staff\\)", Pattern.DOTALL);
    /** Where the rubric begins in the entry's output, after the student's text. */
    private static final String RUBRIC = "\n\nRubric: ";
    /** Where the list of figures that do not match the evidence begins, after the rubric. */
    private static final String FIGURES = "\n\nFigures that do not match the submission's evidence.json:\n";

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
            if (student.results() == null || student.results().tests() == null) {
                continue;
            }
            for (ClassRecords.Test test : student.results().tests()) {
                Matcher name = NAME.matcher(test.name() == null ? "" : test.name());
                if (!test.explanation() || !name.matches()) {
                    continue;
                }
                int number = Integer.parseInt(name.group(1));
                titles.putIfAbsent(number, name.group(2));
                String output = test.output() == null ? "" : test.output();
                int rubricAt = output.lastIndexOf(RUBRIC);
                String rest = rubricAt < 0 ? "" : output.substring(rubricAt + RUBRIC.length());
                int figuresAt = rest.indexOf(FIGURES);
                rubrics.putIfAbsent(number, figuresAt < 0 ? rest.strip() : rest.substring(0, figuresAt).strip());
                answers.putIfAbsent(number, new ArrayList<>());
                unanswered.putIfAbsent(number, new ArrayList<>());
                if (test.passed()) {
                    List<String> problems = figuresAt < 0 ? List.of() : rest.substring(figuresAt + FIGURES.length()).lines()
                            .map(line -> line.startsWith("- ") ? line.substring(2) : line).filter(line -> !line.isBlank()).toList();
                    answers.get(number).add(new Answer(student.name(), (rubricAt < 0 ? output : output.substring(0, rubricAt)).strip(), problems));
                } else {
                    unanswered.get(number).add(student.name());
                }
            }
        }
        List<Question> questions = new ArrayList<>();
        titles.forEach((number, title) -> questions.add(new Question(number, title, rubrics.get(number), List.copyOf(answers.get(number)),
                List.copyOf(unanswered.get(number)))));
        return questions;
    }
}
