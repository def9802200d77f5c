package fencing.grader.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestCase;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What Artemis's import from file reads beside the three repositories: {@code Exercise-Details-*.json}, the problem
 * statement with its task markers, and, for the instructor, each graded test's points and visibility to enter in
 * Artemis, from the grading policy, so that Artemis's total matches {@code ./kit grade}'s.
 *
 * @param policy the grading policy
 * @param scored every hidden test, with its points under {@code policy} ({@link GradingPolicy#apply})
 */
public record ArtemisExercise(GradingPolicy policy, List<TestCase> scored) {

    /**
     * The exercise's short name in the package: Artemis replaces it in every file of the repositories by the short name
     * an instructor gives on import, so it is one no file of the kit holds whole (the tests repository is the kit):
     * hence its two parts here and in {@code ./kit}.
     */
    public static final String SHORT_NAME = "Fencing" + "Kit";
    /** The exercise's title. */
    public static final String TITLE = "Leases, locks and fencing tokens";
    /** The seconds Artemis gives one build; the script's own limit for grading stays under it. */
    public static final int TIMEOUT_SECONDS = 240;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public ArtemisExercise {
        scored = List.copyOf(scored);
    }

    /** One test's setting in Artemis: its name there, its points (Artemis's weight) and its visibility. */
    public record Setting(String testName, int points, String visibility, String property) {
    }

    /** Returns each graded test's setting, in the policy's order of properties. */
    public List<Setting> settings() {
        List<Setting> settings = new ArrayList<>();
        for (String tag : policy.tags().keySet()) {
            for (TestCase test : scored) {
                if (!test.tags().isEmpty() && test.tags().get(0).equals(tag)) {
                    settings.add(new Setting(ArtemisSuite.testName(test), test.points(), visibility(policy.visibility(test)), tag));
                }
            }
        }
        return settings;
    }

    /** Returns the points a submission can earn: the sum of every test's, as {@code ./kit grade}'s maximum. */
    public int maxPoints() {
        return scored.stream().mapToInt(TestCase::points).sum();
    }

    /** Returns Artemis's visibility of a test the policy shows as {@code visibility}. */
    static String visibility(GradingPolicy.Visibility visibility) {
        return switch (visibility) {
            case VISIBLE -> "ALWAYS";
            // Artemis has no release of results after the due date of its own: both wait for the due date.
            case AFTER_DUE_DATE, AFTER_PUBLISHED -> "AFTER_DUE_DATE";
            case HIDDEN -> "NEVER";
        };
    }

    /**
     * Returns {@code Exercise-Details-*.json}: a programming exercise in Java (plain Maven, package {@code fencing}),
     * graded automatically, built by {@code buildScript} in {@code image}.
     */
    public String details(String problemStatement, String buildScript) throws IOException {
        Map<String, Object> build = new LinkedHashMap<>();
        build.put("buildScript", buildScript);
        build.put("timeoutSeconds", TIMEOUT_SECONDS);
        build.put("checkoutSolutionRepository", false);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("type", "programming");
        details.put("title", TITLE);
        details.put("shortName", SHORT_NAME);
        details.put("problemStatement", problemStatement);
        details.put("maxPoints", maxPoints());
        details.put("bonusPoints", 0);
        details.put("assessmentType", "AUTOMATIC");
        details.put("programmingLanguage", "JAVA");
        details.put("projectType", "PLAIN_MAVEN");
        details.put("packageName", "fencing");
        details.put("staticCodeAnalysisEnabled", false);
        details.put("showTestNamesToStudents", true);
        details.put("allowOnlineEditor", true);
        details.put("allowOfflineIde", true);
        details.put("buildConfig", build);
        return JSON.writeValueAsString(details);
    }

    /**
     * Returns the problem statement: the handout's {@code readme}, then one task per property, each linked to the
     * graded tests whose main property it is, so that Artemis colours a task by those tests' results. A property the
     * policy does not show yet (the closed answers) is a plain line: its tests' names, which a student can read in the
     * statement's text, would say which answers the key takes.
     */
    public String problemStatement(String readme) {
        StringBuilder md = new StringBuilder(readme.strip()).append("\n\n## Graded tasks\n\n");
        for (Map.Entry<String, GradingPolicy.Tag> tag : policy.tags().entrySet()) {
            List<String> names = settings().stream().filter(setting -> setting.property().equals(tag.getKey()))
                    .map(Setting::testName).toList();
            if (names.isEmpty()) {
                continue;
            }
            int points = policy.points(tag.getKey());
            if (!tag.getValue().visibility().shownNow()) {
                md.append(String.format(Locale.ROOT, "1. %s (%d point%s): graded, each test's result shown %s%n", tag.getValue().title(),
                        points, points == 1 ? "" : "s", tag.getValue().visibility().gradescope().replace('_', ' ')));
                continue;
            }
            md.append(String.format(Locale.ROOT, "1. [task][%s](%s) (%d point%s)%n", tag.getValue().title().replace("]", ")").replace("[", "("),
                    String.join(",", names), points, points == 1 ? "" : "s"));
        }
        return md.toString();
    }

    /** Returns the table of each test's name, points and visibility to enter in Artemis's grading settings. */
    public String testSettings() {
        StringBuilder md = new StringBuilder("# The test settings to enter in Artemis\n\n")
                .append("Grading › test cases: give each test its weight (the points below) and visibility; set the")
                .append(" exercise's points to ").append(maxPoints()).append(". Artemis then scores a submission as `./kit grade` does.\n\n")
                .append("| Test | Weight (points) | Visibility | Property |\n|---|---|---|---|\n");
        for (Setting setting : settings()) {
            md.append("| ").append(setting.testName()).append(" | ").append(setting.points()).append(" | ")
                    .append(setting.visibility()).append(" | ").append(setting.property()).append(" |\n");
        }
        return md.toString();
    }
}
