package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.cli.GradeCommand;
import fencing.grader.cli.PolicyCommand;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.PolicyRules;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestSuite;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./kit policy}: the table of a good policy, exit 0; each broken rule named with its numbers, exit 2, as the grader says. */
class PolicyCommandTests {

    /** Every hidden test with its {@code @Graded} weight, as the command reads them. */
    private static final List<TestCase> HIDDEN = TestSuite.HIDDEN.discover(true);

    @TempDir
    Path dir;

    /** What one run of the command printed, and its exit code. */
    private record Run(int exit, String out, String err) {
    }

    @Test
    @DisplayName("the kit's policy: exit 0, a line per property with its points and part, each test under it, and the totals")
    void theKitsPolicyPrintsItsTable() {
        GradingPolicy policy = GradingPolicy.load();
        Run run = policy();

        assertThat(run.exit()).as("exit code of ./kit policy on the kit's policy; it said:%n%s", run.err()).isZero();
        assertThat(policy.tags()).as("the properties of %s, each a line of the table", GradingPolicy.FILE)
                .allSatisfy((tag, entry) -> assertThat(run.out()).as("the table").contains(
                        tag + ": " + policy.points(tag) + " point(s), " + entry.part().id() + ", " + entry.visibility().gradescope()));
        assertThat(HIDDEN).as("the hidden tests, each in the table by name").allSatisfy(test -> assertThat(run.out()).contains(test.name()));
        assertThat(run.out()).as("the table's totals and shares")
                .contains("Core: " + PolicyRules.corePoints(policy) + " point(s)")
                .contains("monotonic-tokens 15.0 %").contains("Every rule holds (" + HIDDEN.size() + " tests)");
        assertThat(run.err()).as("what it said on the error stream").isEmpty();
    }

    @Test
    @DisplayName("a property with fewer points than tests: exit 2, naming the property, its points and its tests")
    void tooFewPointsForTheTestsExitsTwo() throws IOException {
        long tests = HIDDEN.stream().filter(test -> test.tags().get(0).equals("predictions")).count();
        Path file = kitPolicyWith("predictions", "points: 4", "points: 3");

        Run run = policy("--policy", file.toString());

        assertThat(run.exit()).as("exit code of ./kit policy on predictions at 3 points").isEqualTo(GradeCommand.CONFIGURATION_ERROR).isEqualTo(2);
        assertThat(run.err()).as("what it said").contains(file.toString())
                .contains("predictions: 3 point(s) for " + tests + " tests: give it at least one point per test");
        assertThat(run.out()).as("the table of a refused policy").isEmpty();
    }

    @Test
    @DisplayName("a learning goal under 15 % of the core in a course's own policy: exit 0, with a note naming the goal, its"
            + " points, the core's and the share; in the kit's own policy the same share is a broken rule")
    void aLearningGoalUnderItsShareIsANoteForACourseAndARuleForTheKit() throws IOException {
        Path file = kitPolicyWith("monotonic-tokens", "points: 18", "points: 17");

        Run run = policy("--policy", file.toString());

        assertThat(run.exit()).as("exit code of ./kit policy on a course's policy with monotonic-tokens at 17 of 119; it said:%n%s",
                run.err()).isZero();
        assertThat(run.out()).as("what it printed").contains("Note, not a rule of a course's own policy: monotonic-tokens: 17 of"
                + " the core's 119 point(s), 14.3 %: a learning goal keeps at least 15 % of the core: give it at least 18 point(s)");
        assertThat(PolicyRules.appliesTo(PolicyRules.Rule.LEARNING_GOALS, GradingPolicy.kitFile()))
                .as("whether the learning goals' share is a rule of %s", GradingPolicy.FILE).isTrue();
        assertThat(PolicyRules.appliesTo(PolicyRules.Rule.LEARNING_GOALS, file))
                .as("whether the learning goals' share is a rule of a course's copy %s", file).isFalse();
    }

    @Test
    @DisplayName("a tag a hidden test carries, left out of the policy: exit 2, naming the tag and how many tests carry it")
    void aHiddenTestsTagMissingFromThePolicyExitsTwo() throws IOException {
        long carriers = HIDDEN.stream().filter(test -> test.tags().contains("quorum")).count();
        String kit = Files.readString(GradingPolicy.kitFile());
        Path file = Files.writeString(dir.resolve("no-quorum.yml"), kit.replaceAll("(?m)^  quorum:\\n(    .*\\n)+", "")
                // Its own limits name it too, which would be refused first.
                .replaceAll("(?m)^  by-tag:\\n(    .*\\n)+", ""));

        Run run = policy("--policy", file.toString());

        assertThat(run.exit()).as("exit code of ./kit policy on a policy without quorum").isEqualTo(2);
        assertThat(run.err()).as("what it said").contains("quorum: carried by " + carriers + " hidden test(s) but not in the policy");
    }

    @Test
    @DisplayName("an unknown visibility or part, an unknown key, a limit of 0: exit 2, naming the tag or section and the value")
    void badValuesAndKeysExitTwo() throws IOException {
        assertRefused(kitPolicyWith("predictions", "visibility: after_due_date", "visibility: later"),
                "tag predictions: visibility must be visible, after_due_date, after_published or hidden, got 'later'");
        assertRefused(kitPolicyWith("quorum", "part: core", "part: bonus"), "tag quorum: part must be core or extension, got 'bonus'");
        assertRefused(kitPolicyWith("quorum", "part: core", "part: core\n    weight: 2"), "tag quorum: unknown key 'weight'");
        String kit = Files.readString(GradingPolicy.kitFile());
        assertRefused(Files.writeString(dir.resolve("limit.yml"), kit.replace("test-cpu-seconds: 10", "test-cpu-seconds: 0")),
                "limits.test-cpu-seconds must be a whole number of seconds, 1 or more; got 0");
    }

    @Test
    @DisplayName("the command says exactly what the rules say, in the grader's words: one place holds the rules")
    void theCommandSaysWhatTheRulesSay() throws IOException {
        Path file = kitPolicyWith("predictions", "points: 4", "points: 3");
        GradingPolicy policy = GradingPolicy.load(file);
        List<String> broken = PolicyRules.check(policy, HIDDEN).stream().map(PolicyRules.Broken::message).toList();
        String refused = new GradingPolicy.Invalid(file, broken).getMessage();

        Run run = policy("--policy", file.toString());

        assertThat(broken).as("the rules predictions at 3 points breaks").isNotEmpty();
        assertThat(run.err().strip()).as("what ./kit policy said, against PolicyRules.check's words").isEqualTo("policy: " + refused);
    }

    @Test
    @DisplayName("a grade by a policy that breaks a rule: exit 2 with the policy command's words, not 'grading could not run', nothing written")
    void aGradeByABrokenPolicyExitsTwoInTheSameWords() throws IOException {
        Path file = kitPolicyWith("predictions", "points: 4", "points: 3");
        Path misspelt = kitPolicyWith("quorum", "part: core", "part: core\n    weight: 2");
        String said = policy("--policy", file.toString()).err().strip().substring("policy: ".length());

        Run grade = grade(file);
        Run unreadable = grade(misspelt);

        assertThat(grade.exit()).as("exit code of ./kit grade --policy with predictions at 3 points; it said:%n%s", grade.err())
                .isEqualTo(GradeCommand.CONFIGURATION_ERROR);
        assertThat(grade.err()).as("what ./kit grade said").contains(said).doesNotContain("could not run");
        assertThat(unreadable.exit()).as("exit code of ./kit grade --policy with an unknown key; it said:%n%s", unreadable.err())
                .isEqualTo(GradeCommand.CONFIGURATION_ERROR);
        assertThat(unreadable.err()).as("what ./kit grade said of the unknown key").contains("tag quorum: unknown key 'weight'")
                .doesNotContain("could not run");
        assertThat(dir.resolve("out")).as("the out folder of a refused grade").doesNotExist();
    }

    private void assertRefused(Path file, String expected) {
        Run run = policy("--policy", file.toString());
        assertThat(run.exit()).as("exit code of ./kit policy on %s; it said:%n%s", file.getFileName(), run.err()).isEqualTo(2);
        assertThat(run.err()).as("what it said of %s", file.getFileName()).contains(file.toString()).contains(expected);
        assertThat(run.out()).as("the table of %s", file.getFileName()).isEmpty();
    }

    /** Writes the kit's policy with {@code from} replaced by {@code to} in the section of {@code tag}. */
    private Path kitPolicyWith(String tag, String from, String to) throws IOException {
        String kit = Files.readString(GradingPolicy.kitFile());
        int section = kit.indexOf("\n  " + tag + ":\n");
        int at = kit.indexOf(from, section);
        assertThat(section).as("the section of %s in the kit's policy", tag).isNotNegative();
        return Files.writeString(dir.resolve(tag + "-" + to.hashCode() + ".yml"),
                kit.substring(0, at) + to + kit.substring(at + from.length()));
    }

    private static Run policy(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = PolicyCommand.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(exit, out.toString(), err.toString());
    }

    private Run grade(Path policyFile) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        int exit;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            exit = GradeCommand.run(KitLocations.exercises().toString(), "--out", dir.resolve("out").toString(), "--no-etcd",
                    "--policy", policyFile.toString());
        } finally {
            System.setErr(original);
        }
        return new Run(exit, "", err.toString(StandardCharsets.UTF_8));
    }
}
