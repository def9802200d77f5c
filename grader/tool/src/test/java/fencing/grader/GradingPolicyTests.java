package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencing.grader.files.ResultsFile;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.Limits;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestResult;
import fencing.grader.pipeline.TestSuite;
import fencing.grader.report.GradescopeResults;
import fencing.grader.report.Reports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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


    private static final Set<String> LEARNING_GOALS = Set.of("monotonic-tokens", "stale-rejection",
            "equal-token-acceptance", "comparison-in-transaction");

    @TempDir
    Path dir;

    @Test
    @DisplayName("the default policy weighs each of the lesson's four learning goals at least 15 % of the core score")
    void defaultWeightsFollowTheLearningGoals() {
        GradingPolicy policy = GradingPolicy.load();
        int core = policy.tags().entrySet().stream().filter(tag -> GradingPolicy.CORE.equals(tag.getValue().part()))
                .mapToInt(tag -> policy.points(tag.getKey())).sum();

        for (String goal : LEARNING_GOALS) {
            assertThat(policy.points(goal) * 100.0 / core).as("%s's share of the core's %d points, in %%", goal, core)
                    .isGreaterThanOrEqualTo(15.0);
        }
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
    @DisplayName("the policy lists every tag the hidden tests carry, and every property worth points is some test's main tag")
    void policyAndTestsNameTheSameProperties() {
        GradingPolicy policy = GradingPolicy.load();
        List<TestCase> tests = GradingFixtures.grader(TestSuite.HIDDEN).tests();
        Set<String> main = new TreeSet<>();
        Set<String> carried = new TreeSet<>();
        tests.forEach(test -> {
            main.add(test.tags().get(0));
            carried.addAll(test.tags());
        });

        assertThat(policy.unlisted(tests)).as("tags of hidden tests missing from %s", GradingPolicy.FILE).isEmpty();
        assertThat(carried).as("tags the hidden tests carry").containsAll(policy.tags().keySet());
        assertThat(main).as("properties that are some test's main tag")
                .containsAll(policy.tags().keySet().stream().filter(tag -> policy.points(tag) > 0).toList());
    }

    @Test
    @DisplayName("a hidden test carries the extension tag exactly when the policy puts its property in the extension part,"
            + " so that the core and extension subtotals and --no-extensions agree with the policy")
    void extensionTagFollowsThePolicysPart() {
        GradingPolicy policy = GradingPolicy.load();
        List<TestCase> tests = GradingFixtures.grader(TestSuite.HIDDEN).tests();

        assertThat(tests).as("hidden tests").isNotEmpty().allSatisfy(test -> assertThat(
                        test.tags().contains(TestSuite.EXTENSION_TAG))
                .as("%s, tags %s, is in the policy's %s part", test.name(), test.tags(), policy.part(test))
                .isEqualTo(GradingPolicy.EXTENSION.equals(policy.part(test))));
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
    @DisplayName("a property with fewer points than tests is refused, naming the property and the policy file")
    void tooFewPointsAreRefused() {
        GradingPolicy policy = policy(Map.of("a", 1));

        assertThatThrownBy(() -> policy.apply(List.of(test("a1", 1, "a"), test("a2", 1, "a"))))
                .as("sharing 1 point among 2 tests").isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a 1 point(s) for 2 tests").hasMessageContaining(GradingPolicy.FILE);
    }

    @Test
    @DisplayName("a policy file with an unknown visibility or part is refused, saying which tag and what is allowed")
    void brokenPolicyFilesAreRefused() throws Exception {
        Path visibility = Files.writeString(dir.resolve("visibility.yml"),
                "count-extensions: true\ntags:\n  quorum:\n    points: 3\n    part: core\n    visibility: later\n");
        Path part = Files.writeString(dir.resolve("part.yml"),
                "count-extensions: true\ntags:\n  quorum:\n    points: 3\n    part: bonus\n    visibility: visible\n");

        assertThatThrownBy(() -> GradingPolicy.load(visibility)).as("a policy with visibility 'later'")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tag quorum").hasMessageContaining("after_due_date");
        assertThatThrownBy(() -> GradingPolicy.load(part)).as("a policy with part 'bonus'")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tag quorum").hasMessageContaining("core or extension");
    }

    @Test
    @DisplayName("extension properties are worth nothing when the policy says Part 4 does not count")
    void extensionsCanBeLeftOut() {
        GradingPolicy counted = new GradingPolicy(true, GradingPolicy.Visibility.HIDDEN,
                Map.of("x", new GradingPolicy.Tag("x", 4, GradingPolicy.EXTENSION, GradingPolicy.Visibility.VISIBLE)), KIT_LIMITS);
        GradingPolicy left = new GradingPolicy(false, counted.explanations(), counted.tags(), KIT_LIMITS);

        assertThat(counted.points("x")).as("an extension property's points when Part 4 counts").isEqualTo(4);
        assertThat(left.apply(List.of(test("x1", 1, "x")))).extracting(TestCase::points)
                .as("an extension test's points when Part 4 does not count").containsExactly(0);
    }

    @Test
    @DisplayName("a test shown after the due date is marked so in results.json, and summary.md names only its property")
    void visibilityReachesTheReports() throws Exception {
        GradingPolicy policy = new GradingPolicy(true, GradingPolicy.Visibility.HIDDEN, Map.of(
                "later", new GradingPolicy.Tag("later", 1, GradingPolicy.CORE, GradingPolicy.Visibility.AFTER_DUE_DATE),
                "now", new GradingPolicy.Tag("now", 1, GradingPolicy.CORE, GradingPolicy.Visibility.VISIBLE)), KIT_LIMITS);
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
                .filter(result -> GradingPolicy.CORE.equals(policy.part(result.test()))).toList();
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
    @DisplayName("a policy without limits, or with a backstop below the CPU budget, is refused and says why")
    void limitsThatCannotHoldAreRefused() throws Exception {
        String tags = "count-extensions: true\ntags:\n  quorum:\n    points: 3\n    part: core\n    visibility: visible\n";
        Path none = Files.writeString(dir.resolve("none.yml"), tags);
        Path inverted = Files.writeString(dir.resolve("inverted.yml"), tags
                + "limits:\n  test-cpu-seconds: 30\n  test-wall-seconds: 10\n  run-seconds: 99\n");
        assertThatThrownBy(() -> GradingPolicy.load(none)).as("a policy with no limits section")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no 'limits:' section");
        assertThatThrownBy(() -> GradingPolicy.load(inverted)).as("a backstop of 10 s under a budget of 30 CPU-seconds")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("test-wall-seconds at least test-cpu-seconds");
    }

    private static GradingPolicy policy(Map<String, Integer> points) {
        Map<String, GradingPolicy.Tag> tags = new java.util.LinkedHashMap<>();
        new TreeSet<>(points.keySet()).forEach(tag -> tags.put(tag,
                new GradingPolicy.Tag(tag, points.get(tag), GradingPolicy.CORE, GradingPolicy.Visibility.VISIBLE)));
        return new GradingPolicy(true, GradingPolicy.Visibility.HIDDEN, tags, KIT_LIMITS);
    }

    private static TestCase test(String name, int weight, String... tags) {
        return new TestCase("[engine:junit-jupiter]/[method:" + name + "()]", "fencing.x.XTests", name, name, weight, List.of(tags));
    }
}
