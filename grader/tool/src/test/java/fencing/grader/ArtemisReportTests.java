package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestResult;
import fencing.grader.pipeline.TestSuite;
import fencing.grader.report.ArtemisExercise;
import fencing.grader.report.ArtemisSuite;
import fencing.grader.report.Platform;
import fencing.grader.report.ReportText;
import fencing.grader.report.Reports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Artemis's format without a container: the surefire-style XML the grade writes, read by the rules of Artemis's
 * {@code TestResultXmlParser} ({@link ArtemisResults}), and the exercise's details, problem statement and test settings
 * from the grading policy.
 */
class ArtemisReportTests {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A task marker as Artemis's problem statement holds one: {@code [task][Name](test1,test2)}. */
    private static final Pattern TASK = Pattern.compile("\\[task]\\[([^\\[\\]]+)]\\(([^()]+)\\)");

    @TempDir
    Path dir;

    @Test
    @DisplayName("a grade's XML, read as Artemis reads it: one file per test class, every test by the name of its class"
            + " and method, each verdict the grade's, and each failure's message the kit's, lines and brackets intact")
    void artemisReadsEveryVerdictAndMessage() throws Exception {
        Grade grade = grade(List.of(
                result("fencing.basics.QuorumGradedTests", "majorityOfOddGroups", true, ""),
                result("fencing.basics.QuorumGradedTests", "toleratedFailures", false,
                        "Quorum.size(4) must be 3: got 2\nexpected: 3 but was: 2 <java.util.List<java.lang.Integer>>"),
                result("fencing.basics.ResourceGradedTests", "rejectsTokenBelowHighWaterMark", false, "")));

        Reports.write(grade, dir.resolve("out"), GradingPolicy.load(), Set.of(Platform.ARTEMIS), Map.of());

        Path reports = Platform.ARTEMIS.file(dir.resolve("out"));
        assertThat(ArtemisResults.files(reports)).as("the XML files of a grade of two test classes")
                .extracting(file -> file.getFileName().toString())
                .containsExactly("TEST-fencing.basics.QuorumGradedTests.xml", "TEST-fencing.basics.ResourceGradedTests.xml");
        assertThat(ArtemisResults.read(reports)).as("the results Artemis reads from them").containsExactly(
                Map.entry("QuorumGradedTests.majorityOfOddGroups", new ArtemisResults.Result(true, "")),
                Map.entry("QuorumGradedTests.toleratedFailures", new ArtemisResults.Result(false,
                        "Quorum.size(4) must be 3: got 2\nexpected: 3 but was: 2 <java.util.List<java.lang.Integer>>")),
                Map.entry("ResourceGradedTests.rejectsTokenBelowHighWaterMark", new ArtemisResults.Result(false, "failed")));
    }

    @Test
    @DisplayName("a 300,000-character message with control characters: Artemis reads it cut to the kit's limit, saying so,"
            + " well within its own 20,000, and the kit's reader reads back what was written")
    void floodedMessagesStayWithinArtemissCut() throws Exception {
        String flood = "Quorum.size will not decide\u0001\u001b[31m" + "x".repeat(300_000);
        Grade grade = grade(List.of(result("fencing.basics.QuorumGradedTests", "toleratedFailures", false, flood)));
        Path folder = Files.createDirectories(dir.resolve("reports"));

        ArtemisSuite suite = ArtemisSuite.of(grade).get(0);
        Path file = suite.write(folder);

        String message = ArtemisResults.read(folder).get("QuorumGradedTests.toleratedFailures").message();
        assertThat(message).as("the flooded message as Artemis reads it").startsWith("Quorum.size will not decide[31m")
                .contains(ReportText.CUT).endsWith(" more characters]");
        assertThat(message.length()).as("its length").isLessThanOrEqualTo(ReportText.TEST_OUTPUT_LIMIT)
                .isLessThan(ArtemisSuite.ARTEMIS_MESSAGE_LIMIT);
        assertThat(ArtemisSuite.read(file)).as("the suite read back by the kit").isEqualTo(new ArtemisSuite(suite.name(),
                List.of(new ArtemisSuite.Case("QuorumGradedTests.toleratedFailures", false, message, 0.005))));
    }

    @Test
    @DisplayName("a submission not fit to grade fails every test with the reason; a grade that could not run writes no XML")
    void unfitAndFailedGrades() throws Exception {
        TestCase test = result("fencing.basics.QuorumGradedTests", "toleratedFailures", true, "").test();
        Grade empty = new Grade("empty", false, "", List.of(new TestResult(test, false, "not graded: the folder is empty", -1)),
                List.of(), "", 0.1, Grade.Status.NOT_GRADED, "not graded: the folder is empty");
        Grade failed = new Grade("failed", false, "", List.of(new TestResult(test, false, "grading could not run: etcd", -1)),
                List.of(), "", 0.1, Grade.Status.COULD_NOT_RUN, "grading could not run: etcd");

        Reports.write(empty, dir.resolve("empty"), GradingPolicy.load(), Set.of(Platform.ARTEMIS), Map.of());
        Reports.write(failed, dir.resolve("failed"), GradingPolicy.load(), Set.of(Platform.ARTEMIS), Map.of());

        assertThat(ArtemisResults.read(Platform.ARTEMIS.file(dir.resolve("empty")))).as("what Artemis reads of an empty submission")
                .containsExactly(Map.entry("QuorumGradedTests.toleratedFailures", new ArtemisResults.Result(false,
                        "not graded: the folder is empty")));
        assertThat(Platform.ARTEMIS.file(dir.resolve("failed"))).as("the reports of a grade that could not run").doesNotExist();
    }

    @Test
    @DisplayName("the test settings give every graded test once, with its points under the policy and Artemis's"
            + " visibility, and add up to the exercise's points")
    void testSettingsFollowThePolicy() {
        GradingPolicy policy = GradingPolicy.load();
        List<TestCase> scored = policy.apply(TestSuite.HIDDEN.discover(true));
        ArtemisExercise exercise = new ArtemisExercise(policy, scored);

        List<ArtemisExercise.Setting> settings = exercise.settings();

        assertThat(settings).as("the settings of the kit's hidden tests").hasSize(scored.size())
                .extracting(ArtemisExercise.Setting::testName).doesNotHaveDuplicates()
                .allMatch(name -> name.matches("[A-Za-z0-9_]+\\.[A-Za-z0-9_]+"));
        assertThat(settings.stream().mapToInt(ArtemisExercise.Setting::points).sum()).as("the settings' total")
                .isEqualTo(exercise.maxPoints())
                .isEqualTo(policy.tags().keySet().stream().filter(tag -> scored.stream().anyMatch(test -> test.tags().get(0).equals(tag)))
                        .mapToInt(policy::points).sum());
        assertThat(settings).as("the settings of the closed answers, which the policy shows after the due date")
                .filteredOn(setting -> setting.property().equals("reasoning")).isNotEmpty()
                .allMatch(setting -> setting.visibility().equals("AFTER_DUE_DATE"));
        assertThat(settings).as("the settings of the quorum tests, which the policy shows")
                .filteredOn(setting -> setting.property().equals("quorum"))
                .isNotEmpty().allMatch(setting -> setting.visibility().equals("ALWAYS"));
    }

    @Test
    @DisplayName("the problem statement keeps the handout's README and has one task per property shown now, each of its"
            + " graded tests in exactly one task; the closed answers' tests, shown after the due date, go unnamed")
    void problemStatementLinksEachTaskToItsTests() {
        GradingPolicy policy = GradingPolicy.load();
        ArtemisExercise exercise = new ArtemisExercise(policy, policy.apply(TestSuite.HIDDEN.discover(true)));

        String statement = exercise.problemStatement("# Leases\n\nThe README.\n");

        List<String> linked = new ArrayList<>();
        List<String> tasks = new ArrayList<>();
        Matcher task = TASK.matcher(statement);
        while (task.find()) {
            tasks.add(task.group(1));
            linked.addAll(List.of(task.group(2).split(",")));
        }
        assertThat(statement).as("the problem statement").startsWith("# Leases\n\nThe README.\n");
        assertThat(tasks).as("the tasks").contains(policy.tags().get("quorum").title(), policy.tags().get("stale-rejection").title());
        assertThat(linked).as("the tests the tasks link").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(exercise.settings().stream().filter(setting -> setting.visibility().equals("ALWAYS"))
                        .map(ArtemisExercise.Setting::testName).toList());
        assertThat(statement).as("the problem statement, on the closed answers").contains(policy.tags().get("reasoning").title())
                .doesNotContain("ReasoningGradedTests");
    }

    @Test
    @DisplayName("Exercise-Details: a Java programming exercise with the fields Artemis's import reads, a short name and a"
            + " package Artemis accepts, the build script and the policy's total as its points")
    void exerciseDetailsHaveWhatTheImportReads() throws Exception {
        GradingPolicy policy = GradingPolicy.load();
        ArtemisExercise exercise = new ArtemisExercise(policy, policy.apply(TestSuite.HIDDEN.discover(true)));

        JsonNode details = JSON.readTree(exercise.details("# Statement", "#!/usr/bin/env bash\n"));

        List<String> fields = new ArrayList<>();
        for (Iterator<String> names = details.fieldNames(); names.hasNext(); ) {
            fields.add(names.next());
        }
        assertThat(fields).as("the fields of Exercise-Details, all of them fields of Artemis's programming exercise")
                .containsExactlyInAnyOrder("type", "title", "shortName", "problemStatement", "maxPoints", "bonusPoints",
                        "assessmentType", "programmingLanguage", "projectType", "packageName", "staticCodeAnalysisEnabled",
                        "showTestNamesToStudents", "allowOnlineEditor", "allowOfflineIde", "buildConfig");
        assertThat(details.path("type").asText()).as("type").isEqualTo("programming");
        assertThat(details.path("programmingLanguage").asText()).as("programmingLanguage").isEqualTo("JAVA");
        assertThat(details.path("projectType").asText()).as("projectType").isIn("PLAIN_MAVEN", "MAVEN_MAVEN");
        assertThat(details.path("shortName").asText()).as("shortName, as Artemis's pattern takes it").matches("[a-zA-Z][a-zA-Z0-9]*");
        assertThat(details.path("packageName").asText()).as("packageName").matches("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*");
        assertThat(details.path("maxPoints").asInt()).as("maxPoints").isEqualTo(exercise.maxPoints()).isPositive();
        assertThat(details.path("buildConfig").path("buildScript").asText()).as("the build script").startsWith("#!/usr/bin/env bash");
        assertThat(details.path("buildConfig").path("timeoutSeconds").asInt()).as("the build's timeout")
                .isEqualTo(ArtemisExercise.TIMEOUT_SECONDS);
    }

    private static Grade grade(List<TestResult> results) {
        return new Grade("student", true, "", results, List.of(), "", 1.0);
    }

    private static TestResult result(String className, String method, boolean passed, String message) {
        TestCase test = new TestCase("[engine:junit-jupiter]/[class:" + className + "]/[method:" + method + "()]", className, method,
                "the display name of " + method, 1, List.of("quorum"));
        return new TestResult(test, passed, message, 5);
    }
}
