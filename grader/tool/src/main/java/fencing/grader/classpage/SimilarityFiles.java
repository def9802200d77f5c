package fencing.grader.classpage;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import fencing.support.FileTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes what the similarity check found: {@code similarity.csv}, a side-by-side page per listed pair, and
 * {@code similarity-answers.csv}, the pairs whose {@code ANSWERS.md} prose reaches the threshold.
 */
final class SimilarityFiles {

    static final String CSV = "similarity.csv";
    /** The pairs of similar {@code ANSWERS.md}, beside {@code similarity.csv}. */
    static final String ANSWERS_CSV = "similarity-answers.csv";
    /** The folder of the side-by-side pages, beside {@code similarity.csv}. */
    static final String VIEWS = "similarity";
    /**
     * How many of the most similar pairs get a side-by-side page: each holds both students' files, and a class that
     * shares one solution would otherwise write one for every pair (a gigabyte for 106 copies).
     */
    static final int VIEWS_AT_MOST = 50;

    private static final CsvMapper MAPPER = new CsvMapper();

    /**
     * One line of {@code similarity.csv}.
     *
     * @param first   the student whose name sorts first
     * @param second  the other student
     * @param average JPlag's average similarity, in percent, one decimal
     * @param maximum JPlag's maximum similarity, in percent, one decimal
     * @param regions how many regions matched
     * @param view    the pair's side-by-side page, relative to the file; empty for a pair past the first {@value #VIEWS_AT_MOST}
     */
    @JsonPropertyOrder({"student_a", "student_b", "average_percent", "maximum_percent", "matched_regions", "view"})
    record Line(@JsonProperty("student_a") String first, @JsonProperty("student_b") String second,
                @JsonProperty("average_percent") String average, @JsonProperty("maximum_percent") String maximum,
                @JsonProperty("matched_regions") int regions, @JsonProperty("view") String view) {
    }

    /**
     * One line of {@code similarity-answers.csv}.
     *
     * @param first   the student whose name sorts first
     * @param second  the other student
     * @param average JPlag's average similarity of their {@code ANSWERS.md}, in percent, one decimal
     * @param maximum JPlag's maximum similarity of them, in percent, one decimal
     */
    @JsonPropertyOrder({"student_a", "student_b", "average_percent", "maximum_percent"})
    record AnswersLine(@JsonProperty("student_a") String first, @JsonProperty("student_b") String second,
                       @JsonProperty("average_percent") String average, @JsonProperty("maximum_percent") String maximum) {
    }

    private SimilarityFiles() {
    }

    /**
     * Writes {@code report} into {@code out}, replacing an earlier one: the pages of pairs no longer listed go.
     *
     * @param back the page each side-by-side page links back to, relative to {@code out}
     */
    static void write(SimilarityReport report, Path out, String back) throws IOException {
        Files.createDirectories(out);
        Path views = out.resolve(VIEWS);
        FileTrees.delete(views);
        if (!report.pairs().isEmpty()) {
            Files.createDirectories(views);
        }
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < report.pairs().size(); i++) {
            SimilarityReport.Pair pair = report.pairs().get(i);
            if (i < VIEWS_AT_MOST) {
                Files.writeString(views.resolve(pair.view()), PairView.html(pair, report.sources(), "../" + back), StandardCharsets.UTF_8);
            }
            lines.add(new Line(pair.first(), pair.second(), decimal(pair.average()), decimal(pair.maximum()), pair.regions().size(),
                    i < VIEWS_AT_MOST ? VIEWS + "/" + pair.view() : ""));
        }
        MAPPER.writer(MAPPER.schemaFor(Line.class).withHeader()).writeValues(out.resolve(CSV).toFile()).writeAll(lines).close();
        List<AnswersLine> answers = report.answers().stream()
                .map(pair -> new AnswersLine(pair.first(), pair.second(), decimal(pair.average()), decimal(pair.maximum()))).toList();
        MAPPER.writer(MAPPER.schemaFor(AnswersLine.class).withHeader()).writeValues(out.resolve(ANSWERS_CSV).toFile()).writeAll(answers).close();
    }

    private static String decimal(double percent) {
        return String.format(Locale.ROOT, "%.1f", percent);
    }
}
