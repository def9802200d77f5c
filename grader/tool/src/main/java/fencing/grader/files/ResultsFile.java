package fencing.grader.files;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A grade's {@code results.json}: Gradescope's autograder format, which is also the kit's own, written and read here
 * only. Its keys and their order are Gradescope's and stay as they are, so that a file written by an earlier kit still
 * reads and a platform sees the same file; {@code status}, last, is the kit's own, and a file without it gets the
 * status its score and output imply ({@link GradeStatus#derived}).
 *
 * @param score            the points earned; absent when grading could not run, so that Gradescope fails the run
 * @param maxScore         the points available
 * @param output           what the grade says as a whole
 * @param outputFormat     how Gradescope shows the outputs
 * @param visibility       who sees the results on Gradescope
 * @param stdoutVisibility who sees the grader's own output on Gradescope
 * @param tests            every test, and the explanations as zero-point entries where the policy shows them to students
 * @param extra            what is kept for staff; null when there is nothing
 * @param status           what became of the submission
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"score", "max_score", "output", "output_format", "visibility", "stdout_visibility", "tests", "extra_data",
        "status"})
public record ResultsFile(@JsonInclude(JsonInclude.Include.NON_NULL) Integer score, @JsonProperty("max_score") int maxScore,
                          String output, @JsonProperty("output_format") String outputFormat, String visibility,
                          @JsonProperty("stdout_visibility") String stdoutVisibility, List<Test> tests,
                          @JsonProperty("extra_data") @JsonInclude(JsonInclude.Include.NON_NULL) Extra extra, GradeStatus status) {

    /** Its file name, in each student's report folder. */
    public static final String FILE = "results.json";
    /** The key of {@code extra_data} that holds the explanations for staff. */
    public static final String EXPLANATIONS = "explanations";
    /** The key of {@code extra_data} that holds the notes for staff (whether the predictions were committed first). */
    public static final String STAFF_NOTES = "staff_notes";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public ResultsFile {
        tests = tests == null ? List.of() : List.copyOf(tests);
        // An empty extra_data is left out, as Gradescope's own samples do.
        extra = extra == null || extra.empty() ? null : extra;
        status = status == null ? GradeStatus.derived(score, output) : status;
    }

    /** Whether a test passed, as Gradescope spells it. */
    public enum Verdict {
        @JsonProperty("passed")
        PASSED,
        @JsonProperty("failed")
        FAILED;

        /** Returns the verdict of a test that {@code passed} or not. */
        public static Verdict of(boolean passed) {
            return passed ? PASSED : FAILED;
        }
    }

    /**
     * One entry of {@code tests}.
     *
     * @param name         the test's name
     * @param score        the points it earned
     * @param maxScore     the points it is worth
     * @param status       whether it passed
     * @param output       its message
     * @param outputFormat how Gradescope shows the message
     * @param tags         its tags, its main one first
     * @param visibility   when Gradescope shows it to a student
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"name", "score", "max_score", "status", "output", "output_format", "tags", "visibility"})
    public record Test(String name, int score, @JsonProperty("max_score") int maxScore, Verdict status, String output,
                       @JsonProperty("output_format") String outputFormat, List<String> tags, String visibility) {

        /** The tag of an entry that passes an explanation on to staff rather than scoring a test. */
        public static final String EXPLANATION_TAG = "explanation";

        public Test {
            tags = tags == null ? List.of() : List.copyOf(tags);
        }

        /** Whether the test passed. */
        public boolean passed() {
            return status == Verdict.PASSED;
        }

        /** Whether this entry passes on an explanation to read rather than scoring a test. */
        public boolean explanation() {
            return tags.contains(EXPLANATION_TAG);
        }
    }

    /**
     * The {@code extra_data}: what Gradescope stores with a submission and never shows a student.
     *
     * @param explanations the explanations for staff, with the rubric to read them by
     * @param staffNotes   the notes only staff may read (whether the predictions were committed first)
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({EXPLANATIONS, STAFF_NOTES})
    public record Extra(@JsonProperty(EXPLANATIONS) @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Explanation> explanations,
                        @JsonProperty(STAFF_NOTES) @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> staffNotes) {

        public Extra {
            explanations = explanations == null ? List.of() : List.copyOf(explanations);
            staffNotes = staffNotes == null ? List.of() : List.copyOf(staffNotes);
        }

        boolean empty() {
            return explanations.isEmpty() && staffNotes.isEmpty();
        }
    }

    /**
     * One open explanation of {@code ANSWERS.md}, kept for staff.
     *
     * @param number         the question's number
     * @param question       its title
     * @param text           what the student wrote; empty when nothing was
     * @param rubric         what a person looks for
     * @param figureProblems the figures quoted that do not match the submission's {@code evidence.json}
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"number", "question", "text", "rubric", "figure_problems"})
    public record Explanation(int number, String question, String text, String rubric,
                              @JsonProperty("figure_problems") List<String> figureProblems) {

        public Explanation {
            text = text == null ? "" : text;
            figureProblems = figureProblems == null ? List.of() : List.copyOf(figureProblems);
        }
    }

    /** Returns the explanations kept for staff; none when it holds none. */
    public List<Explanation> explanations() {
        return extra == null ? List.of() : extra.explanations();
    }

    /** Returns the notes kept for staff; none when it holds none. */
    public List<String> staffNotes() {
        return extra == null ? List.of() : extra.staffNotes();
    }

    /** Returns the file's text. */
    public String json() throws IOException {
        return JSON.writeValueAsString(this);
    }

    /** Writes the file at {@code file}. */
    public void write(Path file) throws IOException {
        Files.writeString(file, json(), StandardCharsets.UTF_8);
    }

    /** Reads the file at {@code file}, written by this kit or an earlier one. */
    public static ResultsFile read(Path file) throws IOException {
        return JSON.readValue(file.toFile(), ResultsFile.class);
    }

    /** Reads a file's text. */
    public static ResultsFile parse(String json) throws IOException {
        return JSON.readValue(json, ResultsFile.class);
    }
}
