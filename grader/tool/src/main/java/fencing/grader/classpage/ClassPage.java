package fencing.grader.classpage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the class page of a batch's output, {@code gradebook.html}, and the similarity report over the whole class
 * ({@code similarity.csv} and a side-by-side page per listed pair): a function of the output folder alone, so that a
 * batch, a merge of shards and a regrade all write it the same way.
 */
public final class ClassPage {

    /** The page's file name, beside {@code gradebook.csv}. */
    public static final String FILE = "gradebook.html";

    /** The default similarity threshold, in percent of JPlag's average similarity. */
    public static final double DEFAULT_THRESHOLD = Similarity.DEFAULT_THRESHOLD;

    private static final List<String> BESIDE = List.of("gradebook.csv", "gradebook.md", SimilarityFiles.CSV, SimilarityFiles.ANSWERS_CSV, "regrade.md", "regrade.csv");

    private ClassPage() {
    }

    /** Whether {@code threshold} is a percentage a similarity can reach, from 0 to 100. */
    public static boolean validThreshold(double threshold) {
        return threshold >= 0 && threshold <= 100;
    }

    /**
     * Writes the page and the similarity report into {@code out}, the output of a batch or a merge, comparing every
     * graded student's kept files; returns the line that says so, for the console.
     *
     * @param threshold the average similarity, in percent, from which a pair is listed
     * @throws IllegalArgumentException if {@code out} is not a batch's output, or the threshold is not a percentage
     */
    public static String write(Path out, double threshold) throws IOException {
        if (!validThreshold(threshold)) {
            throw new IllegalArgumentException("the similarity threshold is a percentage from 0 to 100, got " + threshold);
        }
        long start = System.nanoTime();
        ClassRecords records = ClassRecords.read(out);
        List<Similarity.Folder> folders = new ArrayList<>();
        Map<String, String> notCompared = new LinkedHashMap<>();
        for (ClassRecords.Student student : records.students()) {
            Path kept = out.resolve(student.folder()).resolve(KeptFiles.FOLDER);
            if (!student.graded()) {
                notCompared.put(student.name(), student.row().statusLine());
            } else if (!Files.isDirectory(kept, LinkOption.NOFOLLOW_LINKS)) {
                notCompared.put(student.name(), "its report folder keeps no student files (graded by an earlier version of the kit?)");
            } else {
                folders.add(new Similarity.Folder(student.name(), kept));
            }
        }
        SimilarityReport found = Similarity.compare(folders, threshold);
        notCompared.putAll(found.skipped());
        SimilarityReport similarity = new SimilarityReport(found.threshold(), found.compared(), notCompared, found.pairs(), found.pairCount(),
                found.distribution(), found.highestBelow(), found.seconds(), found.sources(), found.answersCompared(), found.answers());
        SimilarityFiles.write(similarity, out, FILE);
        List<String> links = BESIDE.stream().filter(name -> Files.isRegularFile(out.resolve(name), LinkOption.NOFOLLOW_LINKS)).toList();
        Files.writeString(out.resolve(FILE), ClassPageHtml.html(records, similarity, links), StandardCharsets.UTF_8);
        return String.format(Locale.ROOT, "Class page: %s, written in %.1f s; similarity over %d submission(s) in %.1f s: %d pair(s) at or"
                        + " above %s.", out.resolve(FILE), (System.nanoTime() - start) / 1e9, similarity.compared().size(), similarity.seconds(),
                similarity.pairs().size(), Html.percent(threshold));
    }
}
