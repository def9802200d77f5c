package fencing.grader.pipeline;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rules a grading policy is held to against the hidden tests it scores: the one place they are written, so that the
 * grader, {@code ./kit policy} and the kit's own checks refuse the same policies in the same words.
 *
 * <p>The rules of the file's shape (known keys, part and visibility values, positive limits) are checked as it is read,
 * by {@link GradingPolicy#load(Path)}; these are the rules that need the tests as well.
 */
public final class PolicyRules {

    /** The lesson's learning goals: each keeps at least {@value #GOAL_SHARE_PERCENT} % of the core. */
    public static final List<String> LEARNING_GOALS = List.of("monotonic-tokens", "stale-rejection", "equal-token-acceptance",
            "comparison-in-transaction");

    /** The least share of the core, in percent, each learning goal keeps. */
    public static final int GOAL_SHARE_PERCENT = 15;

    /** One rule, with what it asks of a policy. */
    public enum Rule {
        /** What {@link GradingPolicy#load(Path)} checks as it reads the file. */
        FILE_SHAPE("the file holds only known keys: count-extensions (true or false), explanations and each tag's visibility"
                + " (visible, after_due_date, after_published or hidden), each tag's points (0 or more) and part (core or"
                + " extension), and limits of 1 s or more, the wall backstop at least the CPU budget, the run at least the backstop"),
        /** A test without a tag has no property to take its points or visibility from. */
        TESTS_TAGGED("every hidden test names its property in @Graded(tags)"),
        /** Every tag a hidden test carries is listed, so that no test's points or visibility are guessed. */
        TAGS_LISTED("every tag a hidden test carries is listed in the policy"),
        /** A listed tag is carried by some test: a tag left over from a removed test is a typo waiting to happen. */
        TAGS_CARRIED("every tag the policy lists is carried by some hidden test"),
        /** A property worth points is some test's main tag, or its points would reach no one. */
        POINTS_REACH_A_TEST("every property worth points is the main (first) tag of some hidden test"),
        /** At least one point per test, or some test would be worth nothing. */
        POINT_PER_TEST("a property has at least as many points as tests whose main tag it is"),
        /** The extension tag and the extension part agree, so that the subtotals and --no-extensions agree with the policy. */
        EXTENSION_PART("a hidden test carries the extension tag exactly when its property is in the extension part"),
        /**
         * The lesson's learning goals keep their weight: a rule of the kit's own policy, whose default weights follow the
         * lesson; a course's own policy may weigh them otherwise, and is told their shares instead.
         */
        LEARNING_GOALS("each of the lesson's learning goals keeps at least " + GOAL_SHARE_PERCENT + " % of the core (the kit's"
                + " own policy only)", true);

        private final String asks;
        private final boolean kitsOwn;

        Rule(String asks) {
            this(asks, false);
        }

        Rule(String asks, boolean kitsOwn) {
            this.asks = asks;
            this.kitsOwn = kitsOwn;
        }

        /** Returns what the rule asks of a policy, in a sentence's words. */
        public String asks() {
            return asks;
        }

        /** Whether the rule holds only for the kit's own policy ({@link GradingPolicy#kitFile()}), not a course's own. */
        public boolean kitsOwn() {
            return kitsOwn;
        }
    }

    /**
     * A rule a policy breaks.
     *
     * @param rule    the rule
     * @param message the property and the numbers that break it, and what would mend it
     */
    public record Broken(Rule rule, String message) {
    }

    private PolicyRules() {
    }

    /**
     * Refuses {@code policy}, read from {@code file}, if it breaks a rule against the hidden {@code tests}.
     *
     * @throws GradingPolicy.Invalid naming each broken rule with its numbers
     */
    public static void require(Path file, GradingPolicy policy, List<TestCase> tests) {
        List<Broken> broken = check(policy, tests).stream().filter(rule -> appliesTo(rule.rule(), file)).toList();
        if (!broken.isEmpty()) {
            throw new GradingPolicy.Invalid(file, broken.stream().map(Broken::message).toList());
        }
    }

    /** Whether {@code rule} holds for the policy in {@code file}: every rule for the kit's own, all but its own for a course's. */
    public static boolean appliesTo(Rule rule, Path file) {
        return !rule.kitsOwn() || isKitsOwn(file);
    }

    private static boolean isKitsOwn(Path file) {
        try {
            return java.nio.file.Files.isSameFile(file, GradingPolicy.kitFile());
        } catch (java.io.IOException unreadable) {
            // A file that cannot even be compared is not the kit's policy, which is always there.
            return false;
        }
    }

    /** Returns each rule {@code policy} breaks against the hidden {@code tests}, named with its numbers; empty when none. */
    public static List<Broken> check(GradingPolicy policy, List<TestCase> tests) {
        List<Broken> broken = new ArrayList<>();
        Map<String, List<TestCase>> byMainTag = new LinkedHashMap<>();
        Set<String> carried = new TreeSet<>();
        for (TestCase test : tests) {
            if (test.tags().isEmpty()) {
                broken.add(new Broken(Rule.TESTS_TAGGED, test.name() + ": no tag in its @Graded: name the property it checks"));
            } else {
                byMainTag.computeIfAbsent(test.tags().get(0), tag -> new ArrayList<>()).add(test);
            }
            carried.addAll(test.tags());
        }
        for (String tag : policy.unlisted(tests)) {
            long carriers = tests.stream().filter(test -> test.tags().contains(tag)).count();
            broken.add(new Broken(Rule.TAGS_LISTED, tag + ": carried by " + carriers
                    + " hidden test(s) but not in the policy: list it under tags:"));
        }
        policy.tags().forEach((tag, entry) -> {
            int points = policy.points(tag);
            int count = byMainTag.getOrDefault(tag, List.of()).size();
            if (!carried.contains(tag)) {
                broken.add(new Broken(Rule.TAGS_CARRIED, tag
                        + ": no hidden test carries it: remove it from the policy, or tag a test with it"));
            } else if (points > 0 && count == 0) {
                broken.add(new Broken(Rule.POINTS_REACH_A_TEST, tag + ": " + points
                        + " point(s) but no hidden test has it as its main (first) tag, so they reach no test"));
            }
            tooFewPoints(tag, points, count).ifPresent(message -> broken.add(new Broken(Rule.POINT_PER_TEST, message)));
            for (TestCase test : byMainTag.getOrDefault(tag, List.of())) {
                boolean extensionTag = test.tags().contains(TestSuite.EXTENSION_TAG);
                if (extensionTag != (entry.part() == GradingPolicy.Part.EXTENSION)) {
                    broken.add(new Broken(Rule.EXTENSION_PART, tag + ": part " + entry.part().id() + ", but its test "
                            + test.name() + (extensionTag ? " carries" : " does not carry") + " the tag "
                            + TestSuite.EXTENSION_TAG + ": give the property part " + (extensionTag ? GradingPolicy.Part.EXTENSION : GradingPolicy.Part.CORE).id()));
                    break;
                }
            }
        });
        int core = corePoints(policy);
        for (String goal : LEARNING_GOALS) {
            GradingPolicy.Tag tag = policy.tags().get(goal);
            int points = tag != null && tag.part() == GradingPolicy.Part.CORE ? policy.points(goal) : 0;
            if (core == 0 || points * 100.0 / core < GOAL_SHARE_PERCENT) {
                // The least p with p / (rest + p) at the share: giving the goal points grows the core as well.
                int needed = (int) Math.ceil(GOAL_SHARE_PERCENT * (core - points) / (100.0 - GOAL_SHARE_PERCENT));
                broken.add(new Broken(Rule.LEARNING_GOALS, goal + ": " + points + " of the core's " + core + " point(s), "
                        + percent(points, core) + ": a learning goal keeps at least " + GOAL_SHARE_PERCENT
                        + " % of the core: give it at least " + Math.max(1, needed) + " point(s), the rest of the core as it is"));
            }
        }
        return broken;
    }

    /**
     * Returns the broken rule of a property worth {@code points} shared by {@code tests} tests, if some test would get
     * nothing; a property worth 0 leaves all its tests at 0, which breaks nothing.
     */
    static Optional<String> tooFewPoints(String tag, int points, int tests) {
        return points > 0 && points < tests
                ? Optional.of(tag + ": " + points + " point(s) for " + tests + " tests: give it at least one point per test")
                : Optional.empty();
    }

    /** Returns what the core is worth under {@code policy}: the points of its core properties. */
    public static int corePoints(GradingPolicy policy) {
        return policy.tags().entrySet().stream().filter(tag -> tag.getValue().part() == GradingPolicy.Part.CORE)
                .mapToInt(tag -> policy.points(tag.getKey())).sum();
    }

    /** Returns {@code points} of {@code total} as a percentage with one decimal, as the rules and the table print it. */
    public static String percent(int points, int total) {
        return total == 0 ? "- %" : String.format(Locale.ROOT, "%.1f %%", points * 100.0 / total);
    }
}
