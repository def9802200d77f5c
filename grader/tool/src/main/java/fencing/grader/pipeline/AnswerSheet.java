package fencing.grader.pipeline;

import fencing.grader.KitLocations;
import fencing.reasoning.AnswerKey;
import fencing.reasoning.Answers;
import fencing.reasoning.EvidenceFigures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A submission's {@code ANSWERS.md} as the grader handles it: copied where the graded tests read its closed answers,
 * and read for the explanations a person grades, with each question's quoted figures checked against the evidence of
 * the case it asks about ({@code study/CASE/evidence.json}).
 *
 * @param copy         where the tests read the answers
 * @param explanations one per question of the answer key
 * @param notes        what a student and the instructor should know: a missing file, figures that do not match
 */
public record AnswerSheet(Path copy, List<Explanation> explanations, List<String> notes) {

    /** What figures score, said wherever one could not be checked: the grading policy says the same. */
    static final String UNSCORED = "figures score no points of their own: they go, checked or not, to the person who"
            + " reads your explanation";

    private static final Pattern HEADING = Pattern.compile("## (\\d+)\\..*");

    /** The environment variable that names {@link #copy()} to the tests. */
    static final String VARIABLE = "FENCING_ANSWERS";

    /**
     * Copies the submission's {@code ANSWERS.md} (the kit's template when it has none) into {@code workDir} and reads it.
     */
    public static AnswerSheet prepare(Path submission, Path workDir) throws IOException {
        List<String> notes = new ArrayList<>();
        Path submitted = submission.resolve(Answers.FILE);
        Path source = submitted;
        if (!Files.isRegularFile(submitted)) {
            source = KitLocations.exercises().resolve(Answers.FILE);
            notes.add("Not in the submission, so graded as the unchanged template: " + Answers.FILE);
        }
        Path copy = Files.createDirectories(workDir.resolve("answers")).resolve(Answers.FILE);
        Files.copy(source, copy);
        Answers answers = Answers.parse(Files.readString(copy));
        Set<Integer> askingForFigures = askingForFigures(Files.readString(KitLocations.exercises().resolve(Answers.FILE)));
        List<Explanation> explanations = new ArrayList<>();
        for (AnswerKey.Question question : AnswerKey.QUESTIONS) {
            Optional<Answers.Answer> answer = answers.question(question.number());
            explanations.add(new Explanation(question.number(), question.title(),
                    answer.map(Answers.Answer::explanation).orElse(""), question.rubric(),
                    figureProblems(question.number(), askingForFigures.contains(question.number()), answer, submission, notes)));
        }
        for (AnswerKey.OpenQuestion question : AnswerKey.OPEN_QUESTIONS) {
            Optional<Answers.Answer> answer = answers.question(question.number());
            explanations.add(new Explanation(question.number(), question.title(), answer.map(Answers.Answer::explanation).orElse(""),
                    question.rubric(), figureProblems(question.number(), askingForFigures.contains(question.number()), answer,
                            submission, notes)));
        }
        // A numbered question the key does not know (added to the template since) is still passed on to a person.
        for (Answers.Answer answer : answers.questions().values()) {
            boolean known = AnswerKey.question(answer.number()).isPresent()
                    || AnswerKey.OPEN_QUESTIONS.stream().anyMatch(open -> open.number() == answer.number());
            if (!known && !answer.explanation().isBlank()) {
                explanations.add(new Explanation(answer.number(), answer.title(), answer.explanation(),
                        "(no rubric: the answer key has no question " + answer.number() + ")", List.of()));
            }
        }
        return new AnswerSheet(copy, List.copyOf(explanations), List.copyOf(notes));
    }

    /** Returns the numbers of the questions whose section in {@code template} (the kit's ANSWERS.md) has a {@code Figures:} line. */
    public static Set<Integer> askingForFigures(String template) {
        Set<Integer> asking = new TreeSet<>();
        Integer current = null;
        for (String line : template.lines().toList()) {
            Matcher heading = HEADING.matcher(line.strip());
            if (heading.matches()) {
                current = Integer.parseInt(heading.group(1));
            } else if (line.startsWith("## ")) {
                current = null;
            } else if (current != null && line.strip().startsWith("Figures:")) {
                asking.add(current);
            }
        }
        return asking;
    }

    /**
     * Returns what does not match in the figures {@code answer} quotes, checked against the evidence of the case question
     * {@code number} asks about and no other, and adds a note for them to {@code notes}; empty when it quotes none.
     */
    private static List<String> figureProblems(int number, boolean asksForFigures, Optional<Answers.Answer> answer,
                                               Path submission, List<String> notes) {
        String figures = answer.map(Answers.Answer::figures).orElse("");
        String caseName = AnswerKey.caseOf(number).orElse("late-write");
        if (figures.isBlank()) {
            boolean answered = answer.isPresent() && !(answer.get().closed().isBlank() && answer.get().explanation().isBlank());
            if (asksForFigures && answered) {
                // A check that could not be made says so, rather than passing in silence; an unanswered question is
                // already said to be not answered.
                notes.add("ANSWERS.md question " + number + " asks for figures from your " + caseName + " run, but its"
                        + " \"Figures:\" line quotes none, so none were checked; " + UNSCORED);
            }
            return List.of();
        }
        Optional<EvidenceFigures> evidence = EvidenceFigures.forCase(submission, caseName, notes);
        List<String> problems = evidence.isEmpty()
                ? List.of("figures " + figures + " quoted, but the submission has no evidence of the " + caseName + " case ("
                        + EvidenceFigures.STUDY + "/" + caseName + "/evidence.json) to check them against, so none were"
                        + " checked; " + UNSCORED)
                : evidence.get().problems(figures);
        if (!problems.isEmpty()) {
            notes.add("ANSWERS.md question " + number + ", figures that do not match your " + caseName + " run: " + String.join("; ", problems));
        }
        return problems;
    }
}
