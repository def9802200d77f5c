package fencing.grader.classpage;

import fencing.grader.files.ResultsFile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What the class got and did not get: per graded property, who failed a test of it and the rule most often broken, over
 * the graded submissions as the gradebook counts them; per hidden test, its difficulty and discrimination, over the
 * graded submissions that passed at least one test. A submission that did not compile, or is still the stubs, fails
 * every test alike: it says nothing about any one test, and would make every test look as if it told the class apart.
 */
final class ItemAnalysis {

    /** Below this point-biserial correlation a test tells the stronger students from the weaker ones poorly. */
    static final double DISCRIMINATES = 0.2;

    /** The prefix of a failing message of a test that never ran, which names no rule. */
    private static final String NOT_RUN = "not run:";
    /** The class name an exception's message is prefixed with: {@code java.lang.IllegalStateException: }. */
    private static final Pattern EXCEPTION = Pattern.compile("^(?:[a-z][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error):\\s*");

    /**
     * One graded property (tag).
     *
     * @param tag      the tag
     * @param points   the points of the tests whose main (first) tag it is
     * @param failed   the graded students who failed a test carrying the tag, in gradebook order
     * @param of       how many graded students there are
     * @param phrase   the rule phrase of the failing message seen most often, or null when none names one
     * @param phraseBy how many students got that message
     */
    record Property(String tag, int points, List<String> failed, int of, String phrase, int phraseBy) {

        double share() {
            return of == 0 ? 0 : failed.size() / (double) of;
        }
    }

    /**
     * One hidden test.
     *
     * @param name           its name in {@code results.json}
     * @param tags           its tags, the main one first
     * @param points         its points
     * @param passed         how many graded students passed it
     * @param of             how many graded students were scored on it
     * @param discrimination the point-biserial correlation of passing it with the rest of the score, or null when it
     *                       has none (everyone or no one passed, or the rest of the score does not vary)
     */
    record Item(String name, List<String> tags, int points, int passed, int of, Double discrimination) {

        /** The difficulty: the share of the class that passed. */
        double difficulty() {
            return of == 0 ? 0 : passed / (double) of;
        }

        boolean everyonePassed() {
            return of > 0 && passed == of;
        }

        boolean nobodyPassed() {
            return of > 0 && passed == 0;
        }

        /** Whether it fails to tell stronger from weaker students, among those some of whom passed and some not. */
        boolean doesNotDiscriminate() {
            return !everyonePassed() && !nobodyPassed() && (discrimination == null || discrimination < DISCRIMINATES);
        }
    }

    private ItemAnalysis() {
    }

    /** The properties, in the order their tags first appear in the results. */
    static List<Property> properties(List<ClassRecords.Student> graded) {
        Map<String, Integer> points = new LinkedHashMap<>();
        for (ClassRecords.Student student : graded) {
            tests(student).forEach(test -> test.tags().forEach(tag -> points.putIfAbsent(tag, 0)));
        }
        classTests(graded).values().forEach(test -> points.merge(test.tags().get(0), test.maxScore(), Integer::sum));
        Map<String, List<String>> failed = new LinkedHashMap<>();
        Map<String, Map<String, Integer>> phrases = new LinkedHashMap<>();
        for (ClassRecords.Student student : graded) {
            for (String tag : points.keySet()) {
                List<ResultsFile.Test> failing = tests(student).stream().filter(test -> !test.passed() && test.tags().contains(tag)).toList();
                if (failing.isEmpty()) {
                    continue;
                }
                failed.computeIfAbsent(tag, key -> new ArrayList<>()).add(student.name());
                // Each student counts once per phrase: the most common message is the one most students got.
                failing.stream().map(test -> rulePhrase(test.output())).filter(phrase -> phrase != null).distinct()
                        .forEach(phrase -> phrases.computeIfAbsent(tag, key -> new TreeMap<>()).merge(phrase, 1, Integer::sum));
            }
        }
        List<Property> properties = new ArrayList<>();
        for (Map.Entry<String, Integer> tag : points.entrySet()) {
            Map.Entry<String, Integer> common = phrases.getOrDefault(tag.getKey(), Map.of()).entrySet().stream()
                    .max(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())))
                    .orElse(null);
            properties.add(new Property(tag.getKey(), tag.getValue(), List.copyOf(failed.getOrDefault(tag.getKey(), List.of())),
                    graded.size(), common == null ? null : common.getKey(), common == null ? 0 : common.getValue()));
        }
        return properties;
    }

    /** The graded submissions the item analysis counts: those that passed at least one test. */
    static List<ClassRecords.Student> attempted(List<ClassRecords.Student> graded) {
        return graded.stream().filter(student -> student.row().score() != null && student.row().score() > 0).toList();
    }

    /** The hidden tests, in the order of the results, each with its difficulty and discrimination over {@code graded}. */
    static List<Item> items(List<ClassRecords.Student> graded) {
        List<Map<String, ResultsFile.Test>> named = graded.stream().map(ItemAnalysis::named).toList();
        List<Item> items = new ArrayList<>();
        for (Map.Entry<String, ResultsFile.Test> test : classTests(graded).entrySet()) {
            List<Boolean> passed = new ArrayList<>();
            List<Double> rest = new ArrayList<>();
            for (int i = 0; i < graded.size(); i++) {
                ResultsFile.Test own = named.get(i).get(test.getKey());
                if (own != null && graded.get(i).results().score() != null) {
                    passed.add(own.passed());
                    rest.add((double) (graded.get(i).results().score() - own.score()));
                }
            }
            int count = (int) passed.stream().filter(Boolean::booleanValue).count();
            items.add(new Item(test.getKey(), test.getValue().tags(), test.getValue().maxScore(), count, passed.size(),
                    pointBiserial(passed, rest)));
        }
        return items;
    }

    /**
     * The point-biserial correlation of {@code passed} with {@code rest}: (M1 - M0) / s * sqrt(p * q), with M1 and M0 the
     * mean rest of those who passed and of those who did not, s the rest's standard deviation over everyone and p the
     * share who passed; null when it is not defined.
     */
    static Double pointBiserial(List<Boolean> passed, List<Double> rest) {
        int n = passed.size();
        double sum1 = 0;
        double sum0 = 0;
        int n1 = 0;
        for (int i = 0; i < n; i++) {
            if (passed.get(i)) {
                sum1 += rest.get(i);
                n1++;
            } else {
                sum0 += rest.get(i);
            }
        }
        int n0 = n - n1;
        if (n1 == 0 || n0 == 0) {
            return null;
        }
        double mean = (sum1 + sum0) / n;
        double variance = rest.stream().mapToDouble(value -> (value - mean) * (value - mean)).sum() / n;
        if (variance == 0) {
            return null;
        }
        double p = n1 / (double) n;
        return (sum1 / n1 - sum0 / n0) / Math.sqrt(variance) * Math.sqrt(p * (1 - p));
    }

    /**
     * The rule phrase of a failing message: the assertion's own description, the bracketed text a failure of the hidden
     * tests begins with, or else its first line; null for a test that never ran.
     */
    static String rulePhrase(String message) {
        String text = message == null ? "" : message.strip();
        if (text.isEmpty() || text.startsWith(NOT_RUN) || text.startsWith("not graded:") || text.startsWith("grading could not run:")) {
            return null;
        }
        if (text.startsWith("[")) {
            int depth = 0;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                depth += c == '[' ? 1 : c == ']' ? -1 : 0;
                if (depth == 0) {
                    return text.substring(1, i).strip();
                }
            }
        }
        // An exception's message is the rule; its class name, which a stub's or a crash's message begins with, is not.
        return EXCEPTION.matcher(text.lines().findFirst().orElse(text)).replaceFirst("").strip();
    }

    private static List<ResultsFile.Test> tests(ClassRecords.Student student) {
        return student.results() == null ? List.of()
                : student.results().tests().stream().filter(test -> !test.explanation() && !test.tags().isEmpty()).toList();
    }

    /** The tests of the class, as the first graded student's results name them. */
    private static Map<String, ResultsFile.Test> classTests(List<ClassRecords.Student> graded) {
        return graded.stream().filter(student -> student.results() != null).findFirst().map(ItemAnalysis::named).orElse(Map.of());
    }

    /** A student's tests by name, a repeated name numbered as the regrade report numbers it: {@code name (2)}. */
    private static Map<String, ResultsFile.Test> named(ClassRecords.Student student) {
        Map<String, ResultsFile.Test> named = new LinkedHashMap<>();
        for (ResultsFile.Test test : tests(student)) {
            String name = test.name();
            for (int i = 2; named.containsKey(name); i++) {
                name = test.name() + " (" + i + ")";
            }
            named.put(name, test);
        }
        return named;
    }
}
