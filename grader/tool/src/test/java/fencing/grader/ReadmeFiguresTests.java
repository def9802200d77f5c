package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.Limits;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestSuite;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The READMEs name the policy's limits by their keys, and {@code ./kit policy} prints them: a figure of the policy a
 * README still states beside its key, or in a worked example, is held here to the policy, so that changing the policy
 * changes no README line by hand without a test naming the line.
 */
class ReadmeFiguresTests {

    private static final List<String> READMES = List.of("README.md", "grader/README.md", "grader/tool/README.md",
            "grader/templates/README.md", ".ci/README.md", "labs/README.md", "labs/MAINTAINERS.md",
            "grader/tool/src/main/resources/handout/README.md");

    /** A limit's key with a figure beside it, as in {@code (`test-cpu-seconds`, 10)} or {@code run-seconds: 300}. */
    private static final Pattern KEY_AND_FIGURE = Pattern.compile("`?(test-cpu-seconds|test-wall-seconds|run-seconds)`?(?:,|:| =)?\\s+(\\d+)");

    /** The hostile entry {@code infinite-loop}'s message, quoted as the example of a place: its loop is in a quorum test. */
    private static final Pattern QUORUM_LOOP = Pattern.compile("stopped after\\s+(\\d+)\\s+CPU-seconds in Quorum\\.");

    /** The example of a broken rule: a property given fewer points than it has tests. */
    private static final Pattern TOO_FEW_POINTS = Pattern.compile("`([a-z-]+): (\\d+) point\\(s\\)\\s+for\\s+(\\d+)\\s+tests:\\s+give it at least one point per test`");

    private static final Map<String, ToLongFunction<Limits>> LIMITS = Map.of(
            "test-cpu-seconds", limits -> limits.testCpu().toSeconds(),
            "test-wall-seconds", limits -> limits.testWall().toSeconds(),
            "run-seconds", limits -> limits.run().toSeconds());

    private final GradingPolicy policy = GradingPolicy.load();

    @Test
    @DisplayName("a limit a README names with a figure beside it has the figure the policy gives it")
    void limitsNamedWithAFigureAreThePolicys() throws IOException {
        List<String> stale = new ArrayList<>();
        for (String readme : READMES) {
            forEachMatch(readme, KEY_AND_FIGURE, (line, figure) -> {
                long policyFigure = LIMITS.get(figure.group(1)).applyAsLong(policy.limits());
                if (Long.parseLong(figure.group(2)) != policyFigure) {
                    stale.add(line + " (the policy's " + figure.group(1) + " is " + policyFigure + ")");
                }
            });
        }

        assertThat(stale).as("README lines stating a limit of %s otherwise than it does", GradingPolicy.FILE).isEmpty();
    }

    @Test
    @DisplayName("the example of an endless loop in Quorum.size names the quorum tests' own CPU-seconds")
    void theEndlessLoopExampleNamesTheQuorumTestsBudget() throws IOException {
        long quorumCpu = policy.limits().of(new TestCase("quorum", "Quorum", "size", "size", 1, List.of("quorum"))).cpu().toSeconds();
        List<String> examples = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        for (String readme : READMES) {
            forEachMatch(readme, QUORUM_LOOP, (line, figure) -> {
                examples.add(line);
                if (Long.parseLong(figure.group(1)) != quorumCpu) {
                    stale.add(line + " (the quorum tests' test-cpu-seconds is " + quorumCpu + ")");
                }
            });
        }

        assertThat(examples).as("README lines quoting the endless loop in Quorum.size").isNotEmpty();
        assertThat(stale).as("README lines quoting the endless loop in Quorum.size with a budget the policy no longer gives").isEmpty();
    }

    @Test
    @DisplayName("the example of a property with too few points counts the tests the property really has, and gives it fewer points")
    void theTooFewPointsExampleCountsThePropertysTests() throws IOException {
        List<TestCase> hidden = TestSuite.HIDDEN.discover(true);
        List<String> examples = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        for (String readme : READMES) {
            forEachMatch(readme, TOO_FEW_POINTS, (line, example) -> {
                examples.add(line);
                long tests = hidden.stream().filter(test -> test.tags().get(0).equals(example.group(1))).count();
                if (Integer.parseInt(example.group(3)) != tests || Integer.parseInt(example.group(2)) >= tests) {
                    stale.add(line + " (" + example.group(1) + " has " + tests + " tests)");
                }
            });
        }

        assertThat(examples).as("README lines giving the example of a property with too few points").isNotEmpty();
        assertThat(stale).as("README lines whose example of too few points no longer holds of the hidden tests").isEmpty();
    }

    /**
     * Calls {@code onMatch} with {@code README:LINE: text} for each match of {@code pattern} in {@code readme}, read
     * whole, as a figure may stand on the line after its words.
     */
    private static void forEachMatch(String readme, Pattern pattern, MatchSink onMatch) throws IOException {
        String text = Files.readString(KitLocations.root().resolve(readme));
        Matcher figure = pattern.matcher(text);
        while (figure.find()) {
            int start = text.lastIndexOf('\n', figure.start()) + 1;
            int end = text.indexOf('\n', figure.end());
            String lines = text.substring(start, end < 0 ? text.length() : end).replace('\n', ' ').strip();
            long number = text.substring(0, figure.start()).chars().filter(c -> c == '\n').count() + 1;
            onMatch.accept(readme + ":" + number + ": " + lines, figure);
        }
    }

    @FunctionalInterface
    private interface MatchSink {
        void accept(String line, Matcher match);
    }
}
