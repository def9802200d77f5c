package fencing.reasoning;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The answers in a student's {@code ANSWERS.md}: for each numbered question, the closed answer of its
 * {@code Answer:} line, the explanation, and the figures quoted from the student's own lab run.
 *
 * <p>The template's placeholders are HTML comments, so a line holding only a comment counts as not answered.
 *
 * @param questions the answers by question number, in the file's order
 */
public record Answers(Map<Integer, Answer> questions) {

    /** The file a student writes, at the top of the submission. */
    public static final String FILE = "ANSWERS.md";

    private static final Pattern HEADING = Pattern.compile("^##\\s+(\\d+)\\.\\s*(.*)$");
    private static final Pattern COMMENT = Pattern.compile("<!--.*?-->", Pattern.DOTALL);

    /**
     * One question's answer.
     *
     * @param number      the question's number
     * @param title       the heading's text
     * @param closed      what follows {@code Answer:}, without placeholders; empty when not answered
     * @param explanation the text after {@code Explanation:}, without placeholders; empty when not written
     * @param figures     what follows {@code Figures:}, without placeholders; empty when none are quoted
     */
    public record Answer(int number, String title, String closed, String explanation, String figures) {
    }

    /** Reads the answers in {@code markdown}; a question without a section of its own is simply absent. */
    public static Answers parse(String markdown) {
        String text = COMMENT.matcher(markdown.replace("\r\n", "\n")).replaceAll("");
        Map<Integer, Answer> questions = new LinkedHashMap<>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            Matcher heading = HEADING.matcher(lines.get(i).strip());
            if (!heading.matches()) {
                continue;
            }
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).startsWith("## ")) {
                end++;
            }
            Answer answer = section(Integer.parseInt(heading.group(1)), heading.group(2).strip(), lines.subList(i + 1, end));
            questions.putIfAbsent(answer.number(), answer);
            i = end - 1;
        }
        return new Answers(Collections.unmodifiableMap(questions));
    }

    private static Answer section(int number, String title, List<String> lines) {
        String closed = "";
        String figures = "";
        List<String> explanation = new ArrayList<>();
        boolean inExplanation = false;
        for (String line : lines) {
            String stripped = line.strip();
            if (stripped.startsWith("Answer:") && closed.isEmpty()) {
                closed = stripped.substring("Answer:".length()).strip();
                inExplanation = false;
            } else if (stripped.startsWith("Figures:")) {
                figures = stripped.substring("Figures:".length()).strip();
                inExplanation = false;
            } else if (stripped.startsWith("Explanation:")) {
                inExplanation = true;
                String rest = stripped.substring("Explanation:".length()).strip();
                if (!rest.isEmpty()) {
                    explanation.add(rest);
                }
            } else if (inExplanation && !stripped.equals("---")) {
                explanation.add(line);
            }
        }
        return new Answer(number, title, closed, String.join("\n", explanation).strip(), figures);
    }

    /** Returns the answer to question {@code number}, if the file has that question. */
    public Optional<Answer> question(int number) {
        return Optional.ofNullable(questions.get(number));
    }
}
