package fencing.grader.cli;

import fencing.grader.KitLocations;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.PolicyRules;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestSuite;
import fencing.grader.report.ArtemisExercise;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code artemis --readme FILE --out DIR}: the files of {@code ./kit package artemis} that come from the grading policy
 * and the hidden tests: {@code Exercise-Details-*.json}, {@code Problem-Statement-*.md} and {@code test-settings.md}.
 */
@Command(name = "artemis", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Writes Artemis's Exercise-Details and Problem-Statement files, and the test settings",
                "(weight and visibility per test) to enter in Artemis, from the grading policy."})
public final class ArtemisCommand implements Callable<Integer> {

    /** Where the build script is, in the kit: the exercise's build configuration holds it. */
    public static final String BUILD_SCRIPT = "grader/templates/artemis/build.sh";

    @Option(names = "--readme", required = true, paramLabel = "FILE", description = "The handout's README.md, the problem statement's text.")
    private Path readme;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where to write the files.")
    private Path out;

    /** Runs the command and exits with its code. */
    public static void main(String[] args) {
        CommandLine line = new CommandLine(new ArtemisCommand());
        line.setExecutionExceptionHandler((error, commandLine, parsed) -> {
            commandLine.getErr().println("artemis: " + error.getMessage());
            return 1;
        });
        System.exit(line.execute(args));
    }

    @Override
    public Integer call() throws Exception {
        GradingPolicy policy = GradingPolicy.load();
        List<TestCase> tests = TestSuite.HIDDEN.discover(true);
        PolicyRules.require(GradingPolicy.kitFile(), policy, tests);
        ArtemisExercise exercise = new ArtemisExercise(policy, policy.apply(tests));
        String statement = exercise.problemStatement(Files.readString(readme, StandardCharsets.UTF_8));
        String script = Files.readString(KitLocations.root().resolve(BUILD_SCRIPT), StandardCharsets.UTF_8);
        Files.createDirectories(out);
        String name = ArtemisExercise.SHORT_NAME;
        Files.writeString(out.resolve("Exercise-Details-" + name + ".json"), exercise.details(statement, script), StandardCharsets.UTF_8);
        Files.writeString(out.resolve("Problem-Statement-" + name + ".md"), statement, StandardCharsets.UTF_8);
        Files.writeString(out.resolve("test-settings.md"), exercise.testSettings(), StandardCharsets.UTF_8);
        return 0;
    }
}
