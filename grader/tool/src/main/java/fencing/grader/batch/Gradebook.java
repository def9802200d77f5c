package fencing.grader.batch;

import fencing.grader.files.BatchFolder;
import fencing.grader.files.GradeStatus;
import fencing.grader.files.GradebookRow;
import fencing.grader.pipeline.Grade;
import fencing.grader.report.GradescopeResults;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The class gradebook: {@code gradebook.csv} and {@code gradebook.md}, a row per student. The Markdown row is made from
 * the CSV row, so that a row reused by a regrade or joined by a merge is read from {@code gradebook.csv} alone.
 */
public final class Gradebook {

    static final List<String> MD_HEADER = List.of("| Student | Score | Max | Core | Extension | Failed tags | Status | Answers to read |",
            "|---|---|---|---|---|---|---|---|");
    /** The line under the table that names the students whose rows and reports were taken from an earlier batch. */
    public static final String REUSED_LINE = "Reused from the earlier batch (same student files, same grader): ";

    private Gradebook() {
    }

    public static void write(List<Grade> grades, Path dir) throws IOException {
        write(grades.stream().map(Gradebook::row).toList(), List.of(), dir);
    }

    /** Writes the rows in their order, and names under the table the students whose rows were reused. */
    static void write(List<GradebookRow> rows, List<String> reused, Path dir) throws IOException {
        write(rows, dir, reused.isEmpty() ? List.of() : List.of("", REUSED_LINE + String.join(", ", reused)));
    }

    /** Writes the rows in their order, with {@code after} the lines under the table. */
    static void write(List<GradebookRow> rows, Path dir, List<String> after) throws IOException {
        Files.createDirectories(dir);
        GradebookRow.write(rows, dir.resolve(BatchFolder.GRADEBOOK_CSV));
        StringBuilder md = new StringBuilder("# Gradebook\n\n");
        MD_HEADER.forEach(line -> md.append(line).append('\n'));
        rows.forEach(row -> md.append(markdown(row)).append('\n'));
        after.forEach(line -> md.append(line).append('\n'));
        Files.writeString(dir.resolve(BatchFolder.GRADEBOOK_MD), md, StandardCharsets.UTF_8);
    }

    /** Returns the row of {@code grade}. */
    static GradebookRow row(Grade grade) {
        GradeStatus status = GradescopeResults.status(grade);
        boolean scored = grade.scored();
        return new GradebookRow(grade.submission(), scored ? grade.score() : null, grade.maxScore(),
                status == GradeStatus.GRADED ? grade.failedTags() : List.of(), status,
                status == GradeStatus.GRADED ? "" : grade.reason().lines().findFirst().orElse(""),
                scored ? grade.coreScore() : null, grade.coreMaxScore(), scored ? grade.extensionScore() : null,
                grade.extensionMaxScore(), Math.toIntExact(grade.answersToRead()));
    }

    /** Returns the row of {@code gradebook.md}'s table: the CSV row's fields, the subtotals out of their points. */
    static String markdown(GradebookRow row) {
        String core = row.core() == null ? "" : row.core() + " / " + row.coreMax();
        String extension = row.extensionMax() == 0 ? "not graded"
                : row.extension() == null ? "" : row.extension() + " / " + row.extensionMax();
        return String.format(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %s | %d |", row.student().replace("|", "\\|"),
                row.score() == null ? "" : row.score(), row.max(), core, extension, String.join(", ", row.failedTags()),
                row.statusLine().replace("|", "\\|"), row.answersToRead());
    }

    static String csvField(String text) {
        return text.contains(",") || text.contains("\"") || text.contains("\n")
                ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }
}
