package fencing.grader.cli;

import fencing.grader.classpage.ClassPage;
import fencing.grader.classpage.FolderSimilarity;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
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
    private double threshold = ClassPage.DEFAULT_THRESHOLD;

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
        FolderSimilarity.write(dir, out, threshold, System.out);
        return 0;
    }
}
