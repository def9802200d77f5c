package fencing.grader.classpage;

import fencing.grader.files.SubmissionFolders;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Similar submissions in a folder of submissions, without grading them: {@code ./kit similarity}'s work. */
public final class FolderSimilarity {

    private FolderSimilarity() {
    }

    /**
     * Compares the submissions in {@code dir} (one folder per student) and writes the report into {@code out}.
     *
     * @throws IllegalArgumentException if {@code dir} is not a folder of two or more comparable submissions, or
     *                                  {@code out} is inside it; nothing is written then
     */
    public static void write(Path dir, Path out, double threshold, PrintStream console) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException(dir + " is not a folder: give the folder that holds one folder per student");
        }
        Path folder = dir.toAbsolutePath().normalize();
        if (out.toAbsolutePath().normalize().startsWith(folder)) {
            throw new IllegalArgumentException("--out " + out + " is inside " + dir + ": the report would be taken for a submission"
                    + " next time; write it elsewhere");
        }
        List<Similarity.Folder> folders = SubmissionFolders.list(folder).stream()
                .map(child -> new Similarity.Folder(child.getFileName().toString(), child)).toList();
        if (folders.size() < 2) {
            throw new IllegalArgumentException(dir + " holds " + folders.size() + " submission folder(s): similarity compares two or more");
        }
        SimilarityReport report = Similarity.compare(folders, threshold);
        if (report.compared().size() < 2) {
            throw new IllegalArgumentException("fewer than two submissions in " + dir + " could be compared: " + skipped(report));
        }
        SimilarityFiles.write(report, out, "similarity.html");
        Files.writeString(out.resolve("similarity.html"), SimilaritySection.page(report), StandardCharsets.UTF_8);
        console.printf(Locale.ROOT, "Compared %d submission(s) in %.1f s: %d pair(s) of %d at or above %s average similarity."
                        + " Report: %s%n", report.compared().size(), report.seconds(), report.pairs().size(), report.pairCount(),
                Html.percent(threshold), out.resolve("similarity.html"));
        if (!report.skipped().isEmpty()) {
            console.println("Not compared: " + skipped(report));
        }
    }

    private static String skipped(SimilarityReport report) {
        return String.join("; ", report.skipped().entrySet().stream().map(entry -> entry.getKey() + ": " + entry.getValue()).toList());
    }
}
