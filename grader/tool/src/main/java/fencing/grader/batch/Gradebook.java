package fencing.grader.batch;

import fencing.grader.pipeline.Grade;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The class gradebook: {@code gradebook.csv} and {@code gradebook.md}, a row per student. */
public final class Gradebook {

    static final String CSV_HEADER = "student,score,max,failed_tags,status,core,core_max,extension,extension_max,answers_to_read";
    static final List<String> MD_HEADER = List.of("| Student | Score | Max | Core | Extension | Failed tags | Status | Answers to read |",
            "|---|---|---|---|---|---|---|---|");
    /** The line under the table that names the students whose rows and reports were taken from an earlier batch. */
    public static final String REUSED_LINE = "Reused from the earlier batch (same student files, same grader): ";

    /**
     * One student's row in both files.
     *
     * @param csv the line of {@code gradebook.csv}
     * @param md  the line of {@code gradebook.md}'s table
     */
    record Row(String csv, String md) {
    }

    private Gradebook() {
    }

    public static void write(List<Grade> grades, Path dir) throws IOException {
        write(grades.stream().map(Gradebook::row).toList(), List.of(), dir);
    }

    /** Writes the rows in their order, and names under the table the students whose rows were reused. */
    static void write(List<Row> rows, List<String> reused, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<String> csv = new ArrayList<>(List.of(CSV_HEADER));
        rows.forEach(row -> csv.add(row.csv()));
        Files.write(dir.resolve(BatchFolder.GRADEBOOK_CSV), csv, StandardCharsets.UTF_8);
        StringBuilder md = new StringBuilder("# Gradebook\n\n");
        MD_HEADER.forEach(line -> md.append(line).append('\n'));
        rows.forEach(row -> md.append(row.md()).append('\n'));
        if (!reused.isEmpty()) {
            md.append('\n').append(REUSED_LINE).append(String.join(", ", reused)).append('\n');
        }
        Files.writeString(dir.resolve(BatchFolder.GRADEBOOK_MD), md, StandardCharsets.UTF_8);
    }

    /** Returns the rows of {@code grade}. */
    static Row row(Grade grade) {
        boolean scored = grade.status() != Grade.Status.COULD_NOT_RUN;
        String csv = String.format(Locale.ROOT, "%s,%s,%d,%s,%s,%s,%d,%s,%d,%d", csvField(grade.submission()), score(grade),
                grade.maxScore(), csvField(grade.status() == Grade.Status.GRADED ? String.join(" ", grade.failedTags()) : ""),
                csvField(status(grade)), scored ? Integer.toString(grade.coreScore()) : "", grade.coreMaxScore(),
                scored ? Integer.toString(grade.extensionScore()) : "", grade.extensionMaxScore(), grade.answersToRead());
        String core = scored ? grade.coreScore() + " / " + grade.coreMaxScore() : "";
        String extension = grade.extensionMaxScore() == 0 ? "not graded"
                : scored ? grade.extensionScore() + " / " + grade.extensionMaxScore() : "";
        String md = String.format(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %s | %d |", grade.submission().replace("|", "\\|"),
                score(grade), grade.maxScore(), core, extension,
                grade.status() == Grade.Status.GRADED ? String.join(", ", grade.failedTags()) : "",
                status(grade).lines().findFirst().orElse("").replace("|", "\\|"), grade.answersToRead());
        return new Row(csv, md);
    }

    private static String score(Grade grade) {
        return grade.scored() ? Integer.toString(grade.score()) : "";
    }

    /** {@code graded}, or the first line of why not: the whole reason is in the student's report. */
    private static String status(Grade grade) {
        return grade.status() == Grade.Status.GRADED ? "graded" : grade.reason().lines().findFirst().orElse("");
    }

    static String csvField(String text) {
        return text.contains(",") || text.contains("\"") || text.contains("\n")
                ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }
}
