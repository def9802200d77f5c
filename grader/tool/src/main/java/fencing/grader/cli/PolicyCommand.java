package fencing.grader.cli;

import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.Limits;
import fencing.grader.pipeline.PolicyRules;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestSuite;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code policy [--policy FILE]}: what the grading policy makes of the hidden tests, property by property, and whether
 * it keeps every rule the grader holds it to ({@link PolicyRules}), so that a change of points is checked before a
 * class is graded by it.
 */
@Command(name = "policy", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Prints each property (tag) of the grading policy with its hidden tests,",
                "their @Graded weights and the points each gets, the core and extension totals",
                "and each learning goal's share of the core, and checks every rule the grader",
                "holds a policy to. Exits 0 for a good policy, 2 for one that breaks a rule",
                "(each named with its numbers), as ./kit grade refuses it."})
public final class PolicyCommand implements Callable<Integer> {

    @Option(names = "--policy", paramLabel = "FILE", description = "Check this policy instead of the kit's grader/grading-policy.yml.")
    private Path policy;

    @Spec
    private CommandSpec spec;

    /** Runs the command on the console and exits with its code. */
    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8), args));
    }

    /**
     * Runs the command with {@code args}, the table to {@code out} and what is wrong to {@code err}, and returns its exit
     * code: 0 for a good policy, {@value GradeCommand#CONFIGURATION_ERROR} for one that breaks a rule or bad usage, 1
     * when the policy cannot be read or the tests cannot be found.
     */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine line = new CommandLine(new PolicyCommand()).setOut(out).setErr(err);
        line.setExecutionExceptionHandler((error, commandLine, parsed) -> {
            if (error instanceof GradingPolicy.Invalid invalid) {
                commandLine.getErr().println("policy: " + invalid.getMessage());
                return GradeCommand.CONFIGURATION_ERROR;
            }
            commandLine.getErr().println("policy: " + error);
            return CommandLine.ExitCode.SOFTWARE;
        });
        try {
            return line.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    @Override
    public Integer call() {
        if (policy != null && !Files.isRegularFile(policy)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--policy " + policy + ": no such file");
        }
        Path file = policy != null ? policy : GradingPolicy.kitFile();
        GradingPolicy read = GradingPolicy.load(file);
        // Every hidden test, the etcd ones too: the rules and the table are the policy's, not one run's.
        List<TestCase> tests = TestSuite.HIDDEN.discover(true);
        PolicyRules.require(file, read, tests);
        print(spec.commandLine().getOut(), file, read, read.apply(tests), tests);
        return CommandLine.ExitCode.OK;
    }

    private static void print(PrintWriter out, Path file, GradingPolicy policy, List<TestCase> scored, List<TestCase> weighted) {
        Map<String, List<Integer>> byTag = new LinkedHashMap<>();
        policy.tags().keySet().forEach(tag -> byTag.put(tag, new ArrayList<>()));
        for (int i = 0; i < scored.size(); i++) {
            byTag.get(scored.get(i).tags().get(0)).add(i);
        }
        int core = PolicyRules.corePoints(policy);
        out.printf("Grading policy %s: Part 4 %s (count-extensions: %s); explanations %s%n", file,
                policy.countExtensions() ? "counts" : "does not count", policy.countExtensions(), policy.explanations().gradescope());
        out.printf("Limits: %d CPU-s per test, a %d s wall-clock backstop per test, %d s per submission%n",
                policy.limits().testCpu().toSeconds(), policy.limits().testWall().toSeconds(), policy.limits().run().toSeconds());
        out.println("Each property's points are shared by the tests whose main (first) tag it is, by their @Graded weights:");
        out.println("  weight  points  test");
        byTag.forEach((tag, members) -> {
            GradingPolicy.Tag entry = policy.tags().get(tag);
            int points = policy.points(tag);
            String share = entry.part() == GradingPolicy.Part.CORE ? ", " + PolicyRules.percent(points, core) + " of the core" : "";
            out.printf("%n%s: %d point(s), %s, %s%s — %s%n", tag, points, entry.part().id(), entry.visibility().gradescope(),
                    share, entry.title());
            Limits.Test own = policy.limits().byTag().get(tag);
            if (own != null) {
                out.printf("  its tests' own limits: %d CPU-s, a %d s backstop%n", own.cpu().toSeconds(), own.wall().toSeconds());
            }
            if (members.isEmpty()) {
                out.println("  (no test has it as its main tag: it names what some tests check besides their main property)");
            }
            for (int i : members) {
                out.printf("  %6d %7d  %s%n", weighted.get(i).points(), scored.get(i).points(), scored.get(i).name());
            }
        });
        int extension = policy.tags().entrySet().stream().filter(tag -> tag.getValue().part() == GradingPolicy.Part.EXTENSION)
                .mapToInt(tag -> policy.points(tag.getKey())).sum();
        out.printf("Core: %d point(s) · Extension: %d point(s)%s · Total: %d point(s)%n", core, extension,
                policy.countExtensions() ? "" : " (not counted)", core + extension);
        List<String> shares = PolicyRules.LEARNING_GOALS.stream()
                .map(goal -> goal + " " + PolicyRules.percent(policy.points(goal), core)).toList();
        out.printf("Learning goals' shares of the core (each at least %d %% in the kit's own policy): %s%n",
                PolicyRules.GOAL_SHARE_PERCENT, String.join(", ", shares));
        List<PolicyRules.Broken> own = PolicyRules.check(policy, weighted).stream()
                .filter(broken -> !PolicyRules.appliesTo(broken.rule(), file)).toList();
        own.forEach(broken -> out.println("Note, not a rule of a course's own policy: " + broken.message()));
        out.printf("Every rule holds (%d tests):%n", scored.size());
        for (PolicyRules.Rule rule : PolicyRules.Rule.values()) {
            if (PolicyRules.appliesTo(rule, file)) {
                out.println("  - " + rule.asks());
            }
        }
    }
}
