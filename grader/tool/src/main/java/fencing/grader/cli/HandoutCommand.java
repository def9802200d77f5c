package fencing.grader.cli;

import fencing.grader.KitLocations;
import fencing.grader.handout.Handout;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The instructor's {@code handout --out DIR}: writes the repository students start from. */
@Command(name = "handout", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Writes the student repository: exercises/ as a standalone Maven project with the Maven wrapper and ./kit,",
                "the provided code, the stubs, the public tests, the lab's sources and a README.",
                "It holds no solutions, no hidden tests and no grader. It is a git repository with all of it in one commit."})
public final class HandoutCommand implements Callable<Integer> {

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where to write the handout; must be missing or empty.")
    private Path out;

    @Option(names = "--kit", paramLabel = "DIR", description = "The kit's root directory (default: the kit this tool belongs to).")
    private Path kit;

    /** Runs the tool; exits non-zero when the handout could not be written. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the tool with {@code args} and returns its exit code. */
    public static int run(String... args) {
        CommandLine line = new CommandLine(new HandoutCommand());
        line.setExecutionExceptionHandler((error, commandLine, parsed) -> {
            commandLine.getErr().println("handout: " + error.getMessage());
            return 1;
        });
        return line.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        Path root = kit != null ? kit : KitLocations.root();
        Handout handout = new Handout(root);
        List<Path> written = handout.write(out);
        System.out.printf("Wrote the handout (%d files%s) to %s%n", written.size(),
                handout.hasLab() ? ", with the lab" : "", out.toAbsolutePath().normalize());
        System.out.println("Try it: cd " + out + " && ./kit check");
        return 0;
    }
}
