package fencing.grader.classpage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code similarity DIR --out OUT}: similar submissions in a folder of submissions, without grading them. */
@Command(name = "similarity", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Finds similar submissions with JPlag in DIR, one folder per student laid out like exercises/, without grading.",
                "Compares the student-owned Java files, with the handout's stubs as base code; similarity never changes a score.",
                "Writes OUT/similarity.csv, OUT/similarity.html and a side-by-side page per listed pair in OUT/similarity/."})
public final class SimilarityCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "DIR", description = "The folder of submissions, one folder per student.")
    private Path dir;

    @Option(names = "--out", required = true, paramLabel = "OUT", description = "Where the similarity report goes.")
    private Path out;

    @Option(names = "--threshold", paramLabel = "PERCENT", description = "List the pairs whose average similarity is at least"
            + " PERCENT (default: ${DEFAULT-VALUE}).")
    private double threshold = Similarity.DEFAULT_THRESHOLD;

    /** Runs the command; exits 2 on bad input, having written nothing. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command with {@code args} and returns its exit code. */
    public static int run(String... args) {
        CommandLine line = new CommandLine(new SimilarityCommand());
        line.setExecutionExceptionHandler((error, commandLine, parsed) -> {
            commandLine.getErr().println("similarity: " + error.getMessage());
            return error instanceof IllegalArgumentException ? 2 : 1;
        });
        return line.execute(args);
    }

    @Override
    public Integer call() throws IOException {
        if (!ClassPage.validThreshold(threshold)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--threshold is a percentage from 0 to 100, got " + threshold);
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException(dir + " is not a folder: give the folder that holds one folder per student");
        }
        Path folder = dir.toAbsolutePath().normalize();
        if (out.toAbsolutePath().normalize().startsWith(folder)) {
            throw new IllegalArgumentException("--out " + out + " is inside " + dir + ": the report would be taken for a submission"
                    + " next time; write it elsewhere");
        }
        List<Similarity.Folder> folders = submissions(folder);
        if (folders.size() < 2) {
            throw new IllegalArgumentException(dir + " holds " + folders.size() + " submission folder(s): similarity compares two or more");
        }
        SimilarityReport report = Similarity.compare(folders, threshold);
        if (report.compared().size() < 2) {
            throw new IllegalArgumentException("fewer than two submissions in " + dir + " could be compared: " + skipped(report));
        }
        SimilarityFiles.write(report, out, "similarity.html");
        Files.writeString(out.resolve("similarity.html"), SimilaritySection.page(report), StandardCharsets.UTF_8);
        System.out.printf(Locale.ROOT, "Compared %d submission(s) in %.1f s: %d pair(s) of %d at or above %s average similarity."
                        + " Report: %s%n", report.compared().size(), report.seconds(), report.pairs().size(), report.pairCount(),
                Html.percent(threshold), out.resolve("similarity.html"));
        if (!report.skipped().isEmpty()) {
            System.out.println("Not compared: " + skipped(report));
        }
        return 0;
    }

    /** Lists the submission folders of {@code dir}: every entry but hidden ones and plain files, links included. */
    private static List<Similarity.Folder> submissions(Path dir) throws IOException {
        try (Stream<Path> children = Files.list(dir)) {
            return children.filter(child -> !child.getFileName().toString().startsWith("."))
                    .filter(child -> Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(child)).sorted()
                    .map(child -> new Similarity.Folder(child.getFileName().toString(), child)).toList();
        }
    }

    private static String skipped(SimilarityReport report) {
        return String.join("; ", report.skipped().entrySet().stream().map(entry -> entry.getKey() + ": " + entry.getValue()).toList());
    }
}
