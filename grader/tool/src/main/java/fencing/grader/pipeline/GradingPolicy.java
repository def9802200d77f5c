package fencing.grader.pipeline;

import com.fasterxml.jackson.annotation.JsonValue;
import fencing.grader.KitLocations;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The grading policy of {@code grader/grading-policy.yml}: the points of each graded property (tag), who sees a
 * test's name and message and when, and whether Part 4 counts.
 *
 * <p>A property's points are shared among the tests whose first tag it is, in proportion to their
 * {@code @Graded} points, so the policy alone decides what a property is worth.
 *
 * @param countExtensions whether the extension properties count
 * @param explanations    who sees the open explanations passed on from {@code ANSWERS.md}
 * @param tags            the properties, in the policy's order
 * @param limits          what one test, and one submission's run, may use
 */
public record GradingPolicy(boolean countExtensions, Visibility explanations, Map<String, Tag> tags, Limits limits) {

    /** The policy file, relative to the kit's root. */
    public static final String FILE = "grader/grading-policy.yml";

    /** The part of the course a property belongs to. */
    public enum Part {
        /** Parts 1 to 3, always graded. */
        CORE,
        /** Part 4 and the restore drill, graded when {@code count-extensions} is true. */
        EXTENSION;

        /** What a policy may say, for the message that refuses anything else. */
        static final String EXPECTED = "part must be core or extension";

        /** Returns the value the policy file holds. */
        @JsonValue
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Gradescope's visibility of a test, in its own spelling. */
    public enum Visibility {
        VISIBLE, AFTER_DUE_DATE, AFTER_PUBLISHED, HIDDEN;

        /** What a policy may say, for the message that refuses anything else. */
        static final String EXPECTED = "must be visible, after_due_date, after_published or hidden";

        /** Returns the value Gradescope reads, which is also the policy file's. */
        @JsonValue
        public String gradescope() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Whether a student sees the test's name and message now. */
        public boolean shownNow() {
            return this == VISIBLE;
        }
    }

    /**
     * One graded property.
     *
     * @param title      what a student reads
     * @param points     what the property is worth when every test of it passes
     * @param part       core or extension
     * @param visibility who sees its tests' names and messages, and when
     */
    public record Tag(String title, int points, Part part, Visibility visibility) {
    }

    /**
     * A policy that breaks a rule of a grading policy: the grader and {@code ./kit policy} refuse it with this, in the
     * same words.
     */
    public static final class Invalid extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        /** The file. */
        private final transient Path file;
        /** Each broken rule, named with the numbers that break it. */
        private final List<String> problems;

        /** Refuses {@code file} for {@code problems}, each a broken rule with its numbers. */
        public Invalid(Path file, List<String> problems) {
            super("the grading policy " + file + " is refused:\n  " + String.join("\n  ", problems));
            this.file = file;
            this.problems = List.copyOf(problems);
        }

        Invalid(Path file, String problem) {
            this(file, List.of(problem));
        }

        /** Returns the refused file. */
        public Path file() {
            return file;
        }

        /** Returns each broken rule, in the words the message uses. */
        public List<String> problems() {
            return problems;
        }
    }

    /** Returns the kit's policy file: the one place its default location is resolved. */
    public static Path kitFile() {
        return KitLocations.root().resolve(FILE);
    }

    /** Reads the kit's policy file. */
    public static GradingPolicy load() {
        return load(kitFile());
    }

    /**
     * Reads the policy in {@code file}, holding it to the rules of the file's shape; {@link PolicyRules} holds it to
     * those that need the hidden tests.
     *
     * @throws Invalid if the file is not a valid policy, saying what is wrong where
     */
    public static GradingPolicy load(Path file) {
        PolicyFile read = PolicyFile.read(file);
        if (read.tags() == null) {
            throw new Invalid(file, "no 'tags:' section");
        }
        if (read.countExtensions() == null) {
            throw new Invalid(file, "count-extensions must be true or false, got nothing");
        }
        Map<String, Tag> tags = new LinkedHashMap<>();
        for (Map.Entry<String, PolicyFile.TagEntry> entry : read.tags().entrySet()) {
            String where = "tag " + entry.getKey() + ": ";
            PolicyFile.TagEntry tag = entry.getValue();
            if (tag == null) {
                throw new Invalid(file, where + "title, points, part and visibility are missing");
            }
            if (tag.points() == null || tag.points() < 0) {
                throw new Invalid(file, where + "points must be a whole number, 0 or more, got " + (tag.points() == null ? "nothing" : tag.points()));
            }
            if (tag.part() == null) {
                throw new Invalid(file, where + Part.EXPECTED + ", got nothing");
            }
            if (tag.visibility() == null) {
                throw new Invalid(file, where + "visibility " + Visibility.EXPECTED + ", got nothing");
            }
            tags.put(entry.getKey(), new Tag(tag.title() == null ? entry.getKey() : tag.title(), tag.points(), tag.part(), tag.visibility()));
        }
        Limits limits;
        try {
            limits = Limits.read(read.limits());
        } catch (IllegalArgumentException e) {
            throw new Invalid(file, e.getMessage());
        }
        for (String tag : limits.byTag().keySet()) {
            if (!tags.containsKey(tag)) {
                throw new Invalid(file, "limits.by-tag." + tag + ": no property " + tag + " under tags: (known: "
                        + String.join(", ", tags.keySet()) + ")");
            }
        }
        return new GradingPolicy(read.countExtensions(), read.explanations() == null ? Visibility.HIDDEN : read.explanations(),
                Collections.unmodifiableMap(tags), limits);
    }

    /** Returns the points a property is worth under this policy: 0 for an extension property that does not count. */
    public int points(String tag) {
        Tag found = tags.get(tag);
        if (found == null) {
            return 0;
        }
        return found.part() == Part.EXTENSION && !countExtensions ? 0 : found.points();
    }

    /** Returns the visibility of {@code test}: that of its first tag, or visible for a tag the policy does not list. */
    public Visibility visibility(TestCase test) {
        Tag tag = test.tags().isEmpty() ? null : tags.get(test.tags().get(0));
        return tag == null ? Visibility.VISIBLE : tag.visibility();
    }

    /** Returns the part of {@code test}, by its first tag: core for a tag the policy does not list. */
    public Part part(TestCase test) {
        Tag tag = test.tags().isEmpty() ? null : tags.get(test.tags().get(0));
        return tag == null ? Part.CORE : tag.part();
    }

    /** Returns the tags the tests carry that this policy does not list. */
    public List<String> unlisted(List<TestCase> tests) {
        return tests.stream().flatMap(test -> test.tags().stream()).filter(tag -> !tags.containsKey(tag)).distinct().sorted().toList();
    }

    /**
     * Returns {@code tests} with their points set by this policy; a test whose first tag the policy does not list
     * keeps its {@code @Graded} points ({@link PolicyRules} refuses such a tag).
     *
     * @throws Invalid if a property has fewer points than tests, so that some test would be worth nothing
     */
    public List<TestCase> apply(List<TestCase> tests) {
        Map<String, List<Integer>> byTag = new LinkedHashMap<>();
        for (int i = 0; i < tests.size(); i++) {
            List<String> tags = tests.get(i).tags();
            if (!tags.isEmpty() && this.tags.containsKey(tags.get(0))) {
                byTag.computeIfAbsent(tags.get(0), tag -> new ArrayList<>()).add(i);
            }
        }
        int[] points = tests.stream().mapToInt(TestCase::points).toArray();
        List<String> tooFew = new ArrayList<>();
        byTag.forEach((tag, members) -> PolicyRules.tooFewPoints(tag, points(tag), members.size()).ifPresent(tooFew::add));
        if (!tooFew.isEmpty()) {
            throw new Invalid(Path.of(FILE), tooFew);
        }
        byTag.forEach((tag, members) -> share(points(tag), members, tests, points));
        List<TestCase> scored = new ArrayList<>(tests.size());
        for (int i = 0; i < tests.size(); i++) {
            TestCase test = tests.get(i);
            scored.add(new TestCase(test.uniqueId(), test.className(), test.methodName(), test.displayName(), points[i], test.tags()));
        }
        return scored;
    }

    private static void share(int total, List<Integer> members, List<TestCase> tests, int[] points) {
        if (total == 0) {
            members.forEach(i -> points[i] = 0);
            return;
        }
        double weights = members.stream().mapToDouble(i -> Math.max(1, tests.get(i).points())).sum();
        double[] remainders = new double[members.size()];
        int given = 0;
        for (int k = 0; k < members.size(); k++) {
            double quota = total * Math.max(1, tests.get(members.get(k)).points()) / weights;
            points[members.get(k)] = (int) Math.floor(quota);
            remainders[k] = quota - Math.floor(quota);
            given += points[members.get(k)];
        }
        // Largest remainders first, the earlier test on a tie, so that the same tests always get the same points.
        while (given < total) {
            int best = 0;
            for (int k = 1; k < members.size(); k++) {
                if (remainders[k] > remainders[best]) {
                    best = k;
                }
            }
            points[members.get(best)]++;
            remainders[best] = -1;
            given++;
        }
        for (int k = 0; k < members.size(); k++) {
            if (points[members.get(k)] == 0) {
                int richest = members.stream().max((a, b) -> Integer.compare(points[a], points[b])).orElseThrow();
                points[richest]--;
                points[members.get(k)] = 1;
            }
        }
    }
}
