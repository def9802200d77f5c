package fencing.grader.files;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One student's row of {@code gradebook.csv}, written and read here only. The file's columns are those of
 * {@link #HEADER}; a field is quoted only when it holds a comma, a quote or a line break, as RFC 4180 allows, so that
 * a spreadsheet and a person read the same text.
 *
 * @param student       the submission's name
 * @param score         the points earned; null when grading could not run
 * @param max           the points available
 * @param failedTags    the tags of the failed tests, sorted; none unless the submission was graded
 * @param status        what became of the submission
 * @param reason        the first line of why it was not graded or could not be; empty when it was graded
 * @param core          the points earned on the core; null when grading could not run
 * @param coreMax       the points available on the core
 * @param extension     the points earned on the extension tasks; null when grading could not run
 * @param extensionMax  the points available on the extension tasks; 0 when they were not graded
 * @param answersToRead how many explanations were written and wait for a person to read them
 */
public record GradebookRow(String student, Integer score, int max, List<String> failedTags, GradeStatus status, String reason,
                           Integer core, int coreMax, Integer extension, int extensionMax, int answersToRead) {

    /** The file's first line: its columns. */
    public static final String HEADER = "student,score,max,failed_tags,status,core,core_max,extension,extension_max,answers_to_read";

    private static final CsvMapper CSV = CsvMapper.builder().enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .enable(CsvParser.Feature.EMPTY_STRING_AS_NULL).build();
    // The tags are one column, space-separated: a JUnit tag holds no white space.
    private static final CsvSchema SCHEMA = CSV.schemaFor(Columns.class).withHeader().withStrictHeaders(true)
            .withArrayElementSeparator(" ");

    public GradebookRow {
        failedTags = failedTags == null ? List.of() : List.copyOf(failedTags);
        reason = reason == null ? "" : reason;
    }

    /** The row as the file spells it; the status column is {@code graded} or the reason why not. */
    @JsonPropertyOrder({"student", "score", "max", "failed_tags", "status", "core", "core_max", "extension", "extension_max",
            "answers_to_read"})
    private record Columns(String student, Integer score, int max, @JsonProperty("failed_tags") List<String> failedTags,
                           String status, Integer core, @JsonProperty("core_max") int coreMax, Integer extension,
                           @JsonProperty("extension_max") int extensionMax, @JsonProperty("answers_to_read") int answersToRead) {

        GradebookRow row() {
            GradeStatus derived = GradeStatus.derived(score, status);
            return new GradebookRow(student, score, max, failedTags, derived, derived == GradeStatus.GRADED ? "" : status, core,
                    coreMax, extension, extensionMax, answersToRead);
        }
    }

    /** Thrown when a file's columns are not the gradebook's: a file of another version of the kit, or no gradebook. */
    public static final class OtherColumns extends IllegalArgumentException {

        private final String found;

        OtherColumns(Path file, String found) {
            super(file + " has other columns (" + found + ") than this grader writes (" + HEADER + ")");
            this.found = found;
        }

        /** Returns the columns the file has, as its first line lists them; {@code none} for an empty file. */
        public String found() {
            return found;
        }
    }

    /** Returns the status column: {@code graded}, or the first line of why not. */
    public String statusLine() {
        return status == GradeStatus.GRADED ? GradeStatus.GRADED.words() : reason;
    }

    /** Writes {@code rows} in their order, under the header, as {@code file}. */
    public static void write(List<GradebookRow> rows, Path file) throws IOException {
        List<Columns> columns = rows.stream().map(row -> new Columns(row.student(), row.score(), row.max(), row.failedTags(),
                row.statusLine(), row.core(), row.coreMax(), row.extension(), row.extensionMax(), row.answersToRead())).toList();
        Files.writeString(file, CSV.writer(SCHEMA).writeValueAsString(columns), StandardCharsets.UTF_8);
    }

    /**
     * Reads the rows of {@code file}, in its order.
     *
     * @throws OtherColumns if its columns are not this grader's
     */
    public static List<GradebookRow> read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String header = text.lines().findFirst().orElse("none");
        if (!header.equals(HEADER)) {
            throw new OtherColumns(file, header);
        }
        List<GradebookRow> rows = new ArrayList<>();
        try (MappingIterator<Columns> lines = CSV.readerFor(Columns.class).with(SCHEMA).readValues(text)) {
            lines.forEachRemaining(columns -> rows.add(columns.row()));
        }
        return List.copyOf(rows);
    }
}
