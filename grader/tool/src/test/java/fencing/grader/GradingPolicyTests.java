package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import fencing.grader.files.ResultsFile;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.Limits;
import fencing.grader.pipeline.PolicyRules;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestResult;
import fencing.grader.pipeline.TestSuite;
import fencing.grader.report.GradescopeResults;
import fencing.grader.report.Reports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The grading policy: its default weights follow the lesson, it scores the tests, and it refuses a broken file. */
class GradingPolicyTests {

    private static final Limits KIT_LIMITS = GradingPolicy.load().limits();


    @TempDir
    Path dir;

    @Test
    @DisplayName("the kit's policy keeps every rule the grader holds a policy to, the learning goals' 15 % of the core among them")
    void theKitsPolicyKeepsEveryRule() {
        GradingPolicy policy = GradingPolicy.load();
        List<TestCase> tests = GradingFixtures.grader(TestSuite.HIDDEN).tests();

        assertThat(PolicyRules.check(policy, tests)).as("the rules %s breaks against the hidden tests", GradingPolicy.FILE).isEmpty();
        int core = PolicyRules.corePoints(policy);
        assertThat(PolicyRules.LEARNING_GOALS).as("the learning goals' shares of the core's %d points", core)
                .allSatisfy(goal -> assertThat(policy.points(goal) * 100.0 / core).as("%s's share in %%", goal)
                        .isGreaterThanOrEqualTo(PolicyRules.GOAL_SHARE_PERCENT));
    }

    @Test
    @DisplayName("a learning goal under 15 % of the core breaks a rule, named with its points, the core's and the share")
    void aLearningGoalUnderItsShareBreaksARule() {
        GradingPolicy kit = GradingPolicy.load();
        Map<String, GradingPolicy.Tag> tags = new LinkedHashMap<>(kit.tags());
        GradingPolicy.Tag tokens = tags.get("monotonic-tokens");
        tags.put("monotonic-tokens", new GradingPolicy.Tag(tokens.title(), 17, tokens.part(), tokens.visibility()));
        GradingPolicy lowered = new GradingPolicy(kit.countExtensions(), kit.explanations(), tags, kit.limits());

        assertThat(PolicyRules.check(lowered, TestSuite.HIDDEN.discover(true)))
                .as("the rules the kit's policy breaks with monotonic-tokens at 17 points").singleElement().satisfies(broken -> {
                    assertThat(broken.rule()).as("the rule broken").isEqualTo(PolicyRules.Rule.LEARNING_GOALS);
                    assertThat(broken.message()).as("what it says")
                            .isEqualTo("monotonic-tokens: 17 of the core's 119 point(s), 14.3 %: a learning goal keeps at least"
                                    + " 15 % of the core: give it at least 18 point(s), the rest of the core as it is");
                });
    }

    @Test
    @DisplayName("the instructors' guide lists exactly the policy's tags")
    void theGuideListsThePolicysTags() throws IOException {
        String guide = Files.readString(KitLocations.root().resolve("grader/README.md"));
        String sentence = guide.split("The tags are ", 2)[1].split("\n\n", 2)[0];
        Set<String> listed = new TreeSet<>();
        Matcher name = Pattern.compile("`([a-z]+(?:-[a-z]+)*)`").matcher(sentence);
        while (name.find()) {
            listed.add(name.group(1));
        }

        assertThat(listed).as("the tags grader/README.md lists, against %s", GradingPolicy.FILE)
                .containsExactlyInAnyOrderElementsOf(GradingPolicy.load().tags().keySet());
    }

    @Test
    @DisplayName("a policy missing a tag the hidden tests carry, or listing one none carries, breaks the rules naming the tag")
    void policyAndTestsNameTheSameProperties() {
        GradingPolicy policy = policy(Map.of("a", 2, "stray", 1));
        List<TestCase> tests = List.of(test("a1", 1, "a", "unlisted"), test("a2", 1, "a"));

        assertThat(PolicyRules.check(policy, tests)).as("the rules broken by tags a, stray against tests tagged a and unlisted")
                .extracting(PolicyRules.Broken::rule, PolicyRules.Broken::message).contains(
                        tuple(PolicyRules.Rule.TAGS_LISTED,
                                "unlisted: carried by 1 hidden test(s) but not in the policy: list it under tags:"),
                        tuple(PolicyRules.Rule.TAGS_CARRIED,
                                "stray: no hidden test carries it: remove it from the policy, or tag a test with it"));
    }

    @Test
    @DisplayName("a hidden test carries the extension tag exactly when the policy puts its property in the extension part,"
            + " so that the core and extension subtotals and --no-extensions agree with the policy")
    void extensionTagFollowsThePolicysPart() {
        GradingPolicy policy = new GradingPolicy(true, GradingPolicy.Visibility.HIDDEN, Map.of(
                "x", new GradingPolicy.Tag("x", 4, GradingPolicy.Part.CORE, GradingPolicy.Visibility.VISIBLE),
                TestSuite.EXTENSION_TAG, new GradingPolicy.Tag("e", 4, GradingPolicy.Part.EXTENSION, GradingPolicy.Visibility.VISIBLE)),
                KIT_LIMITS);

        assertThat(PolicyRules.check(policy, List.of(test("x1", 1, "x", TestSuite.EXTENSION_TAG))))
                .as("the rules broken by a core property whose test carries the extension tag")
                .extracting(PolicyRules.Broken::rule).contains(PolicyRules.Rule.EXTENSION_PART);
    }

    @Test
    @DisplayName("a property's points are shared by its tests in proportion to their weights, whole, and add up exactly")
    void pointsAreSharedByWeight() {
        GradingPolicy policy = policy(Map.of("a", 12, "b", 5));
        List<TestCase> scored = policy.apply(List.of(test("a1", 1, "a"), test("a2", 2, "a"), test("a3", 3, "a", "b"),
                test("b1", 1, "b"), test("b2", 1, "b"), test("b3", 1, "b")));

        assertThat(scored).extracting(TestCase::points).as("points of a1, a2, a3 (12 shared 1:2:3), b1, b2, b3 (5 shared equally)")
                .containsExactly(2, 4, 6, 2, 2, 1);
    }

    @Test
    @DisplayName("a test whose share would round to nothing still gets a point, taken from the largest share")
    void everyTestIsWorthAPoint() {
        List<TestCase> scored = policy(Map.of("a", 3)).apply(List.of(test("a1", 20, "a"), test("a2", 1, "a"), test("a3", 1, "a")));

        assertThat(scored).extracting(TestCase::points).as("points of a1, a2, a3").containsExactly(1, 1, 1);
    }

    @Test
    @DisplayName("a property with fewer points than tests is refused, naming the property, the numbers and the policy file")
    void tooFewPointsAreRefused() {
        GradingPolicy policy = policy(Map.of("a", 1));
        List<TestCase> tests = List.of(test("a1", 1, "a"), test("a2", 1, "a"));

        assertThatThrownBy(() -> policy.apply(tests))
                .as("sharing 1 point among 2 tests").isInstanceOf(GradingPolicy.Invalid.class)
                .hasMessageContaining("a: 1 point(s) for 2 tests: give it at least one point per test")
                .hasMessageContaining(GradingPolicy.FILE);
        assertThat(PolicyRules.check(policy, tests)).as("the rules broken by 1 point for 2 tests")
                .extracting(PolicyRules.Broken::rule).contains(PolicyRules.Rule.POINT_PER_TEST);
    }

    @Test
    @DisplayName("a policy file with an unknown visibility or part is refused, saying which tag and what is allowed")
    void brokenPolicyFilesAreRefused() throws Exception {
        Path visibility = Files.writeString(dir.resolve("visibility.yml"),
                "count-extensions: true\ntags:\n  quorum:\n    points: 3\n    part: core\n    visibility: later\n");
        Path part = Files.writeString(dir.resolve("part.yml"),
                "count-extensions: true\ntags:\n  quorum:\n    points: 3\n    part: bonus\n    visibility: visible\n");

        assertThatThrownBy(() -> GradingPolicy.load(visibility)).as("a policy with visibility 'later'")
                .isInstanceOf(GradingPolicy.Invalid.class).hasMessageContaining("tag quorum").hasMessageContaining("after_due_date")
                .hasMessageContaining("'later'");
        assertThatThrownBy(() -> GradingPolicy.load(part)).as("a policy with part 'bonus'")
                .isInstanceOf(GradingPolicy.Invalid.class).hasMessageContaining("tag quorum").hasMessageContaining("core or extension")
                .hasMessageContaining("'bonus'");
    }

    @Test
    @DisplayName("a policy file with a key the policy does not know is refused, naming the key, where it is and the file")
    void unknownKeysAreRefused() throws Exception {
        Path misspelt = Files.writeString(dir.resolve("misspelt.yml"),
                "count-extensions: true\ntags:\n  quorum:\n    pionts: 3\n    part: core\n    visibility: visible\n");
        Path top = Files.writeString(dir.resolve("top.yml"), "count-extension: true\ntags: {}\n");

        assertThatThrownBy(() -> GradingPolicy.load(misspelt)).as("a policy whose tag quorum says 'pionts'")
                .isInstanceOf(GradingPolicy.Invalid.class).hasMessageContaining(misspelt.toString())
                .hasMessageContaining("tag quorum: unknown key 'pionts'").hasMessageContaining("points");
        assertThatThrownBy(() -> GradingPolicy.load(top)).as("a policy that says 'count-extension'")
                .isInstanceOf(GradingPolicy.Invalid.class).hasMessageContaining("unknown key 'count-extension'")
                .hasMessageContaining("count-extensions");
    }

    @Test
    @DisplayName("a value of the wrong kind is refused, never coerced: points \"3\" or 2.5, count-extensions \"yes\", a tag 3")
    void valuesOfTheWrongKindAreRefused() throws Exception {
        String limits = "limits:\n  test-cpu-seconds: 10\n  test-wall-seconds: 20\n  run-seconds: 300\n";
        Path text = Files.writeString(dir.resolve("text.yml"), "count-extensions: true\ntags:\n  quorum:\n    points: '3'\n"
                + "    part: core\n    visibility: visible\n" + limits);
        Path fraction = Files.writeString(dir.resolve("fraction.yml"), "count-extensions: true\ntags:\n  quorum:\n    points: 2.5\n"
                + "    part: core\n    visibility: visible\n" + limits);
        Path yes = Files.writeString(dir.resolve("yes.yml"), "count-extensions: 'yes'\ntags: {}\n" + limits);

        assertThatThrownBy(() -> GradingPolicy.load(text)).as("points given as the text '3'").isInstanceOf(GradingPolicy.Invalid.class)
                .hasMessageContaining("tag quorum: points must be a whole number, 0 or more, got ").hasMessageContaining("'3'");
        assertThatThrownBy(() -> GradingPolicy.load(fraction)).as("points 2.5").isInstanceOf(GradingPolicy.Invalid.class)
                .hasMessageContaining("tag quorum: points must be a whole number, 0 or more");
        assertThatThrownBy(() -> GradingPolicy.load(yes)).as("count-extensions 'yes'").isInstanceOf(GradingPolicy.Invalid.class)
                .hasMessageContaining("count-extensions must be true or false");
        Path scalar = Files.writeString(dir.resolve("scalar.yml"), "count-extensions: true\ntags:\n  quorum: 3\n" + limits);
        assertThatThrownBy(() -> GradingPolicy.load(scalar)).as("a tag given as the number 3").isInstanceOf(GradingPolicy.Invalid.class)
                .hasMessageContaining("tag quorum must be a section of title, points, part and visibility, got 3");
    }

    @Test
    @DisplayName("extension properties are worth nothing when the policy says Part 4 does not count")
    void extensionsCanBeLeftOut() {
        GradingPolicy counted = new GradingPolicy(true, GradingPolicy.Visibility.HIDDEN,
                Map.of("x", new GradingPolicy.Tag("x", 4, GradingPolicy.Part.EXTENSION, GradingPolicy.Visibility.VISIBLE)), KIT_LIMITS);
        GradingPolicy left = new GradingPolicy(false, counted.explanations(), counted.tags(), KIT_LIMITS);

        assertThat(counted.points("x")).as("an extension property's points when Part 4 counts").isEqualTo(4);
        assertThat(left.apply(List.of(test("x1", 1, "x")))).extracting(TestCase::points)
                .as("an extension test's points when Part 4 does not count").containsExactly(0);
    }

    @Test
    @DisplayName("a test shown after the due date is marked so in results.json, and summary.md names only its property")
    void visibilityReachesTheReports() throws Exception {
        GradingPolicy policy = new GradingPolicy(true, GradingPolicy.Visibility.HIDDEN, Map.of(
                "later", new GradingPolicy.Tag("later", 1, GradingPolicy.Part.CORE, GradingPolicy.Visibility.AFTER_DUE_DATE),
                "now", new GradingPolicy.Tag("now", 1, GradingPolicy.Part.CORE, GradingPolicy.Visibility.VISIBLE)), KIT_LIMITS);
        Grade grade = new Grade("alice", true, "", List.of(
                new TestResult(test("secretName", 1, "later"), false, "secret message", 5),
                new TestResult(test("openName", 1, "now"), false, "open message", 5)), List.of(), "", 1.0);

        ResultsFile results = ResultsFile.parse(GradescopeResults.json(grade, policy));
        String summary = Reports.summary(grade, policy);

        assertThat(results.tests()).extracting(ResultsFile.Test::visibility).as("visibility of the two tests in results.json")
                .containsExactly("after_due_date", "visible");
        assertThat(summary).as("summary.md").doesNotContain("secretName").doesNotContain("secret message")
                .contains("a test of later: shown after due date").contains("openName").contains("open message");
    }

    @Test
    @DisplayName("a sink that compares outside its transaction scores at most 85 % of the core, the solutions 100 %")
    void comparingOutsideTheTransactionCostsAtLeastFifteenPercent() throws Exception {
        Path entry = KitLocations.catalog().resolve("wrong/sink-check-outside-transaction");
        Grade wrong = GradingFixtures.grade(CatalogSubmissions.assemble(entry, dir.resolve("outside")));

        GradingPolicy policy = GradingPolicy.load();
        List<TestResult> core = wrong.results().stream()
                .filter(result -> policy.part(result.test()) == GradingPolicy.Part.CORE).toList();
        int coreMax = core.stream().mapToInt(result -> result.test().points()).sum();
        int coreScore = core.stream().mapToInt(TestResult::score).sum();

        assertThat(coreMax).as("the core's maximum").isPositive();
        assertThat(coreScore * 100.0 / coreMax).as("the core score of %s in %%; failed: %s", entry.getFileName(),
                wrong.failedTags()).isLessThanOrEqualTo(85.0);
        assertThat(wrong.failedTags()).as("what it lost points on").containsExactly("comparison-in-transaction");
    }

    @Test
    @DisplayName("the limits come from the policy's limits section, and a system property overrides one")
    void limitsComeFromThePolicyAndAPropertyOverridesThem() throws Exception {
        Path file = dir.resolve("limits.yml");
        Files.writeString(file, "count-extensions: true\ntags:\n  quorum:\n    points: 3\n    part: core\n    visibility: visible\n"
                + "limits:\n  test-cpu-seconds: 7\n  test-wall-seconds: 21\n  run-seconds: 99\n");
        assertThat(GradingPolicy.load(file).limits()).as("the limits of %s", Files.readString(file))
                .isEqualTo(new Limits(Duration.ofSeconds(7), Duration.ofSeconds(21), Duration.ofSeconds(99)));
        String property = Limits.PROPERTY_PREFIX + "test-cpu-seconds";
        System.setProperty(property, "3");
        try {
            assertThat(GradingPolicy.load(file).limits().testCpu()).as("the CPU budget with -D%s=3", property)
                    .isEqualTo(Duration.ofSeconds(3));
            System.setProperty(property, "three");
            assertThatThrownBy(() -> GradingPolicy.load(file)).as("a limit that is not a whole number")
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(property).hasMessageContaining("'three'");
        } finally {
            System.clearProperty(property);
        }
    }

    @Test
    @DisplayName("a property's own limits under by-tag are those of the tests whose main property it is, never above the"
            + " section's, and a system property lowering the section's lowers theirs")
    void aPropertysOwnLimitsApplyToItsTests() throws Exception {
        Path file = Files.writeString(dir.resolve("by-tag.yml"), "count-extensions: true\ntags:\n"
                + "  quorum:\n    points: 3\n    part: core\n    visibility: visible\n"
                + "  structure:\n    points: 3\n    part: core\n    visibility: visible\n"
                + "limits:\n  test-cpu-seconds: 10\n  test-wall-seconds: 20\n  run-seconds: 99\n"
                + "  by-tag:\n    quorum:\n      test-cpu-seconds: 2\n      test-wall-seconds: 5\n");
        Limits limits = GradingPolicy.load(file).limits();
        assertThat(limits.of(test("A quorum test", 1, "quorum", "structure"))).as("the limits of a test whose main property is quorum")
                .isEqualTo(new Limits.Test(Duration.ofSeconds(2), Duration.ofSeconds(5)));
        assertThat(limits.of(test("A structure test", 1, "structure", "quorum"))).as("the limits of a test whose main property is structure")
                .isEqualTo(new Limits.Test(Duration.ofSeconds(10), Duration.ofSeconds(20)));
        assertThat(limits.of(null)).as("the limits of a class's set-up").isEqualTo(limits.test());
        String property = Limits.PROPERTY_PREFIX + "test-cpu-seconds";
        System.setProperty(property, "1");
        try {
            assertThat(GradingPolicy.load(file).limits().of(test("A quorum test", 1, "quorum")).cpu())
                    .as("a quorum test's CPU budget with -D%s=1", property).isEqualTo(Duration.ofSeconds(1));
        } finally {
            System.clearProperty(property);
        }
    }

    @Test
    @DisplayName("a property's own limits above the section's, for a property the policy does not have, or with a backstop below"
            + " its budget are refused, naming the key and the numbers")
    void ownLimitsThatCannotHoldAreRefused() throws Exception {
        String head = "count-extensions: true\ntags:\n  quorum:\n    points: 3\n    part: core\n    visibility: visible\n"
                + "limits:\n  test-cpu-seconds: 10\n  test-wall-seconds: 20\n  run-seconds: 99\n  by-tag:\n";
        Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("    quorum:\n      test-cpu-seconds: 12\n",
                "limits.by-tag.quorum.test-cpu-seconds must be a whole number of seconds from 1 to limits.test-cpu-seconds (10); got 12");
        refused.put("    quorum:\n      test-cpu-seconds: 6\n      test-wall-seconds: 3\n",
                "limits.by-tag.quorum: test-wall-seconds must be at least test-cpu-seconds; got 3 and 6");
        refused.put("    quorom:\n      test-cpu-seconds: 2\n", "limits.by-tag.quorom: no property quorom under tags:");
        refused.put("    quorum:\n      test-cpu-secs: 2\n", "unknown key 'test-cpu-secs'");
        int i = 0;
        for (Map.Entry<String, String> policy : refused.entrySet()) {
            Path file = Files.writeString(dir.resolve("own-" + i++ + ".yml"), head + policy.getKey());
            assertThatThrownBy(() -> GradingPolicy.load(file)).as("a policy whose by-tag section is%n%s", policy.getKey())
                    .isInstanceOf(GradingPolicy.Invalid.class).hasMessageContaining(policy.getValue());
        }
    }

    @Test
    @DisplayName("a policy without limits, or with a backstop below the CPU budget, is refused and says why")
    void limitsThatCannotHoldAreRefused() throws Exception {
        String tags = "count-extensions: true\ntags:\n  quorum:\n    points: 3\n    part: core\n    visibility: visible\n";
        Path none = Files.writeString(dir.resolve("none.yml"), tags);
        Path inverted = Files.writeString(dir.resolve("inverted.yml"), tags
                + "limits:\n  test-cpu-seconds: 30\n  test-wall-seconds: 10\n  run-seconds: 99\n");
        assertThatThrownBy(() -> GradingPolicy.load(none)).as("a policy with no limits section")
                .isInstanceOf(GradingPolicy.Invalid.class).hasMessageContaining("no 'limits:' section");
        assertThatThrownBy(() -> GradingPolicy.load(inverted)).as("a backstop of 10 s under a budget of 30 CPU-seconds")
                .isInstanceOf(GradingPolicy.Invalid.class).hasMessageContaining("test-wall-seconds at least test-cpu-seconds");
    }

    private static GradingPolicy policy(Map<String, Integer> points) {
        Map<String, GradingPolicy.Tag> tags = new java.util.LinkedHashMap<>();
        new TreeSet<>(points.keySet()).forEach(tag -> tags.put(tag,
                new GradingPolicy.Tag(tag, points.get(tag), GradingPolicy.Part.CORE, GradingPolicy.Visibility.VISIBLE)));
        return new GradingPolicy(true, GradingPolicy.Visibility.HIDDEN, tags, KIT_LIMITS);
    }

    private static TestCase test(String name, int weight, String... tags) {
        return new TestCase("[engine:junit-jupiter]/[method:" + name + "()]", "fencing.x.XTests", name, name, weight, List.of(tags));
    }
}
