package fencing.grader.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import fencing.grader.KitLocations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

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
    public static final String CORE = "core";
    /** The part of the course of Part 4's properties. */
    public static final String EXTENSION = "extension";

    /** Gradescope's visibility of a test, in its own spelling. */
    public enum Visibility {
        VISIBLE, AFTER_DUE_DATE, AFTER_PUBLISHED, HIDDEN;

        /** Returns the value Gradescope reads. */
        public String gradescope() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Whether a student sees the test's name and message now. */
        public boolean shownNow() {
            return this == VISIBLE;
        }

        static Visibility parse(String value, String where) {
            for (Visibility visibility : values()) {
                if (visibility.gradescope().equals(value)) {
                    return visibility;
                }
            }
            throw new IllegalArgumentException(where + ": visibility must be visible, after_due_date, after_published or hidden, got '"
                    + value + "'");
        }
    }

    /**
     * One graded property.
     *
     * @param title      what a student reads
     * @param points     what the property is worth when every test of it passes
     * @param part       {@value #CORE} or {@value #EXTENSION}
     * @param visibility who sees its tests' names and messages, and when
     */
    public record Tag(String title, int points, String part, Visibility visibility) {
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
     * Reads the policy in {@code file}.
     *
     * @throws IllegalArgumentException if the file is not a valid policy, saying what is wrong where
     */
    public static GradingPolicy load(Path file) {
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the grading policy " + file, e);
        }
        if (root == null || !root.path("tags").isObject()) {
            throw new IllegalArgumentException(file + ": no 'tags:' section");
        }
        JsonNode count = root.path("count-extensions");
        if (!count.isBoolean()) {
            throw new IllegalArgumentException(file + ": count-extensions must be true or false");
        }
        Map<String, Tag> tags = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("tags").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String where = file.getFileName() + ", tag " + entry.getKey();
            JsonNode tag = entry.getValue();
            if (!tag.path("points").isInt() || tag.path("points").asInt() < 0) {
                throw new IllegalArgumentException(where + ": points must be a whole number, 0 or more");
            }
            String part = tag.path("part").asText();
            if (!Set.of(CORE, EXTENSION).contains(part)) {
                throw new IllegalArgumentException(where + ": part must be core or extension, got '" + part + "'");
            }
            tags.put(entry.getKey(), new Tag(tag.path("title").asText(entry.getKey()), tag.path("points").asInt(), part,
                    Visibility.parse(tag.path("visibility").asText(), where)));
        }
        return new GradingPolicy(count.asBoolean(),
                Visibility.parse(root.path("explanations").asText("hidden"), file.getFileName().toString()),
                Collections.unmodifiableMap(tags), Limits.read(file, root));
    }

    /** Returns the points a property is worth under this policy: 0 for an extension property that does not count. */
    public int points(String tag) {
        Tag found = tags.get(tag);
        if (found == null) {
            return 0;
        }
        return EXTENSION.equals(found.part()) && !countExtensions ? 0 : found.points();
    }

    /** Returns the visibility of {@code test}: that of its first tag, or visible for a tag the policy does not list. */
    public Visibility visibility(TestCase test) {
        Tag tag = test.tags().isEmpty() ? null : tags.get(test.tags().get(0));
        return tag == null ? Visibility.VISIBLE : tag.visibility();
    }

    /** Returns the part ({@value #CORE} or {@value #EXTENSION}) of {@code test}, by its first tag. */
    public String part(TestCase test) {
        Tag tag = test.tags().isEmpty() ? null : tags.get(test.tags().get(0));
        return tag == null ? CORE : tag.part();
    }

    /** Returns the tags the tests carry that this policy does not list. */
    public List<String> unlisted(List<TestCase> tests) {
        return tests.stream().flatMap(test -> test.tags().stream()).filter(tag -> !tags.containsKey(tag)).distinct().sorted().toList();
    }

    /**
     * Returns {@code tests} with their points set by this policy; a test whose first tag the policy does not list
     * keeps its {@code @Graded} points (the kit's checks reject such a tag).
     *
     * @throws IllegalStateException if a property has fewer points than tests, so that some test would be worth nothing
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
        byTag.forEach((tag, members) -> share(tag, points(tag), members, tests, points));
        List<TestCase> scored = new ArrayList<>(tests.size());
        for (int i = 0; i < tests.size(); i++) {
            TestCase test = tests.get(i);
            scored.add(new TestCase(test.uniqueId(), test.className(), test.methodName(), test.displayName(), points[i], test.tags()));
        }
        return scored;
    }

    private static void share(String tag, int total, List<Integer> members, List<TestCase> tests, int[] points) {
        if (total == 0) {
            members.forEach(i -> points[i] = 0);
            return;
        }
        if (total < members.size()) {
            throw new IllegalStateException(FILE + " gives " + tag + " " + total + " point(s) for " + members.size()
                    + " tests: give it at least one point per test");
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
