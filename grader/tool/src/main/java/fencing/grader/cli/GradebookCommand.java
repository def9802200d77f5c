package fencing.grader.cli;

import fencing.grader.batch.ShardMerge;
import fencing.grader.classpage.ClassPage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gradebook merge OUT1 OUT2 ... --out ALL}: joins the outputs of a sharded batch into one class gradebook. */
@Command(name = "gradebook", mixinStandardHelpOptions = true, subcommands = GradebookCommand.Merge.class,
        description = "Works on the outputs of ./kit grade --batch.")
public final class GradebookCommand implements Callable<Integer> {

    /** Runs the command; exits non-zero when the shards cannot be merged or a student is missing. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command with {@code args} and returns its exit code. */
    public static int run(String... args) {
        CommandLine line = new CommandLine(new GradebookCommand());
        line.setExecutionExceptionHandler((error, commandLine, parsed) -> {
            commandLine.getErr().println("gradebook: " + error.getMessage());
            return error instanceof IllegalArgumentException ? 2 : 1;
        });
        return line.execute(args);
    }

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(new CommandLine(this), "say what to do: gradebook merge OUT1 OUT2 ... --out ALL");
    }

    /** Merges shard outputs: their students' reports and one gradebook, refusing duplicates, reporting missing students. */
    @Command(name = "merge", mixinStandardHelpOptions = true,
            description = {"Merges the outputs of ./kit grade --batch DIR --shard I/N into one gradebook.",
                    "Refuses a student graded in two shards or shards of different classes; names every student in no shard."})
    static final class Merge implements Callable<Integer> {

        @Parameters(arity = "1..*", paramLabel = "OUT", description = "The shards' output folders.")
        private List<Path> shards;

        @Option(names = "--out", required = true, paramLabel = "ALL", description = "Where the merged reports and gradebook go.")
        private Path out;

        @Option(names = "--similarity-threshold", paramLabel = "PERCENT", description = "List on the class page and in"
                + " similarity.csv the pairs of submissions whose JPlag average similarity is at least PERCENT (default:"
                + " ${DEFAULT-VALUE}). Similarity never changes a score.")
        private double similarityThreshold = ClassPage.DEFAULT_THRESHOLD;

        @Override
        public Integer call() throws IOException {
            if (!ClassPage.validThreshold(similarityThreshold)) {
                throw new IllegalArgumentException("--similarity-threshold is a percentage from 0 to 100, got " + similarityThreshold);
            }
            int exit = ShardMerge.merge(shards, out, System.out);
            // Over every merged student: the class page and its similarity are the whole class's, never a shard's.
            System.out.println(ClassPage.write(out, similarityThreshold));
            return exit;
        }
    }
}
