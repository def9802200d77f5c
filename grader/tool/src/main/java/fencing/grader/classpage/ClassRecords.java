package fencing.grader.classpage;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import fencing.grader.batch.BatchFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A batch's output read into records: {@code gradebook.csv}, {@code batch.json} and each student's
 * {@code results.json}, the same data the gradebook is made of; nothing is read from a report meant for people.
 *
 * @param batch    what {@code batch.json} says
 * @param students one per gradebook row, in its order
 */
record ClassRecords(BatchFile batch, List<Student> students) {

    /** The gradebook's status of a graded submission; the others begin {@code not graded:} or {@code grading could not run:}. */
    static final String GRADED = "graded";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CsvMapper CSV = CsvMapper.builder().enable(CsvParser.Feature.EMPTY_STRING_AS_NULL).build();

    /**
     * The part of {@code batch.json} the page uses.
     *
     * @param shard    {@code I/N}, {@code 1/1} for a whole class
     * @param students every student of the class
     * @param graded   the students this output holds
     * @param reused   those whose grade was taken over from an earlier batch
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record BatchFile(String shard, List<String> students, List<String> graded, List<String> reused) {

        /** The students of the class this output does not hold. */
        List<String> missing() {
            return students.stream().filter(student -> !graded.contains(student)).toList();
        }
    }

    /** One row of {@code gradebook.csv}; a score is null when grading could not run. */
    @JsonPropertyOrder({"student", "score", "max", "failed_tags", "status", "core", "core_max", "extension", "extension_max",
            "answers_to_read"})
    record Row(String student, Integer score, int max, @JsonProperty("failed_tags") String failedTags, String status, Integer core,
               @JsonProperty("core_max") int coreMax, Integer extension, @JsonProperty("extension_max") int extensionMax,
               @JsonProperty("answers_to_read") int answersToRead) {

        /** The failed tags, as the gradebook lists them. */
        List<String> failed() {
            return failedTags == null || failedTags.isBlank() ? List.of() : List.of(failedTags.strip().split(" +"));
        }
    }

    /**
     * A student's {@code results.json} (Gradescope's format).
     *
     * @param score    the score, absent when grading could not run
     * @param maxScore the points available
     * @param tests    every test, and the explanations as zero-point entries where the policy shows them to students
     * @param extra    what it keeps for staff
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Results(Integer score, @JsonProperty("max_score") int maxScore, List<Test> tests, @JsonProperty("extra_data") Extra extra) {

        /** The explanations passed on to staff, none when it holds none. */
        List<Explanation> explanations() {
            return extra == null || extra.explanations() == null ? List.of() : extra.explanations();
        }
    }

    /** The {@code extra_data} of {@code results.json}: what Gradescope stores with a submission and never shows a student. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Extra(List<Explanation> explanations) {
    }

    /**
     * One open explanation of {@code ANSWERS.md}, kept for staff in {@code extra_data}.
     *
     * @param number         the question's number
     * @param question       its title
     * @param text           what the student wrote; empty when nothing was
     * @param rubric         what a person looks for
     * @param figureProblems the figures quoted that do not match the submission's {@code evidence.json}
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Explanation(int number, String question, String text, String rubric,
                       @JsonProperty("figure_problems") List<String> figureProblems) {
    }

    /** One entry of {@code results.json}'s {@code tests}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Test(String name, int score, @JsonProperty("max_score") int maxScore, String status, String output, List<String> tags) {

        boolean passed() {
            return "passed".equals(status);
        }

        /** Whether this entry passes on an explanation to read rather than scoring a test. */
        boolean explanation() {
            return tags != null && tags.contains("explanation");
        }
    }

    /**
     * A student of the batch.
     *
     * @param row     the gradebook row
     * @param folder  the student's report folder, relative to the output
     * @param results the results, or null when the folder holds none
     */
    record Student(Row row, String folder, Results results) {

        String name() {
            return row.student();
        }

        boolean graded() {
            return GRADED.equals(row.status());
        }
    }

    /**
     * Reads the output of a batch or merge in {@code out}.
     *
     * @throws IllegalArgumentException if {@code out} is not such an output, saying what is missing or unreadable
     */
    static ClassRecords read(Path out) throws IOException {
        Path batchFile = out.resolve("batch.json");
        Path gradebook = out.resolve("gradebook.csv");
        if (!Files.isRegularFile(batchFile, LinkOption.NOFOLLOW_LINKS) || !Files.isRegularFile(gradebook, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException(out + " is not the output of ./kit grade --batch or ./kit gradebook merge: it needs"
                    + " batch.json and gradebook.csv");
        }
        BatchFile batch;
        List<Row> rows = new ArrayList<>();
        try {
            batch = JSON.readValue(batchFile.toFile(), BatchFile.class);
            try (MappingIterator<Row> lines = CSV.readerFor(Row.class).with(CSV.schemaFor(Row.class).withHeader().withStrictHeaders(true))
                    .readValues(gradebook.toFile())) {
                lines.forEachRemaining(rows::add);
            }
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(out + " holds a batch.json or gradebook.csv this kit cannot read ("
                    + e.getOriginalMessage() + "): was it written by another version of the kit?", e);
        }
        if (batch.students() == null || batch.graded() == null) {
            throw new IllegalArgumentException(batchFile + " lists no students: it is not a batch record");
        }
        List<Student> students = new ArrayList<>();
        for (Row row : rows) {
            String folder = BatchFolder.reportFolder(row.student());
            Path results = out.resolve(folder).resolve("results.json");
            students.add(new Student(row, folder, Files.isRegularFile(results, LinkOption.NOFOLLOW_LINKS)
                    ? JSON.readValue(results.toFile(), Results.class) : null));
        }
        return new ClassRecords(batch, List.copyOf(students));
    }

    /** The students whose submission was graded. */
    List<Student> graded() {
        return students.stream().filter(Student::graded).toList();
    }
}
