package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.files.ResultsFile;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.Grader;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestResult;
import fencing.grader.pipeline.TestSuite;
import fencing.grader.report.GradescopeResults;
import fencing.grader.report.Platform;
import fencing.grader.report.ReportText;
import fencing.grader.report.Reports;
import fencing.grader.sandbox.KitFingerprint;
import fencing.grader.sandbox.Sandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Containment: a submission that loops, deadlocks, exits, overflows, floods its output or its messages, or vandalises
 * files is graded within the limit, with a report that says what happened, never above its honest score, every platform
 * file within its size limits, and the grader unchanged.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostileCatalogTests {

    /** Entries that reach for files outside their work directory: only grading as root can stop them. */
    private static final Set<String> NEED_SANDBOX = Set.of("writes-grader-files", "reads-solutions");
    /** The entry that reaches for the network: only a network namespace can stop it. */
    private static final String NEED_NETWORK_SANDBOX = "reaches-network";

    private static Grader grader;
    /** The first grade of each hostile entry, to be compared with its grade under overload. */
    private static final Map<Path, Grade> FIRST = new java.util.concurrent.ConcurrentHashMap<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void startGrader() {
        // Containment does not depend on etcd: these runs leave its tests out to stay short.
        grader = new Grader(new Grader.Options(TestSuite.HIDDEN, false, null));
    }

    @AfterAll
    static void closeGrader() {
        grader.close();
    }

    @TestFactory
    @Order(1)
    @DisplayName("each hostile submission is contained, reported in plain words, and never scores above its honest score")
    Stream<DynamicTest> hostileSubmissionsAreContained() {
        List<Path> entries = CatalogSubmissions.entries("hostile");
        assertThat(entries).as("hostile entries").hasSizeGreaterThanOrEqualTo(16);
        return CatalogSubmissions.selected("hostile").stream().map(entry -> DynamicTest.dynamicTest(entry.getFileName().toString(), () -> {
            String name = entry.getFileName().toString();
            if (NEED_SANDBOX.contains(name)) {
                Assumptions.assumeTrue(Sandbox.forThisMachine().dropsPrivileges(),
                        name + " needs grading as root, where a submission's tests run as nobody; run ./kit test as root to check it");
            }
            Bait bait = null;
            if (NEED_NETWORK_SANDBOX.equals(name)) {
                // Without the sandbox this entry would really send its bytes: it runs only where it must fail.
                Assumptions.assumeTrue(Sandbox.forThisMachine().isolatesNetwork(), name + " needs grading as root with"
                        + " unshare and ip, where a submission's tests run without a network; run ./kit test as root to check it");
                bait = Bait.onThisMachinesAddress();
                Assumptions.assumeTrue(bait != null, name + " needs a non-loopback address on this machine to listen on");
            }
            List<String> tags = CatalogSubmissions.expectedTags(entry);
            List<String> phrases = CatalogSubmissions.expectedReport(entry);
            KitFingerprint before = KitFingerprint.of(KitClassPath.ofThisJvm());
            long start = System.nanoTime();

            Path submission = CatalogSubmissions.assemble(entry, dir.resolve(name));
            if (bait != null) {
                bait.plantIn(submission.resolve("src/main/java/fencing/basics/Resource.java"));
            }
            Grade grade;
            try (Bait listening = bait) {
                grade = grader.grade(submission, "hostile/" + UUID.randomUUID());
                if (listening == null) {
                    FIRST.put(entry, grade);
                }
                if (listening != null) {
                    assertThat(listening.connections()).as("%s: connections that reached %s from the submission's tests",
                            name, listening.address()).isZero();
                }
            }

            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(took).as("%s: grading must end within its time limit", name).isLessThan(GradingPolicy.load().limits().run().plusSeconds(30));
            before.requireUnchanged(KitFingerprint.of(KitClassPath.ofThisJvm()), name);
            assertThat(grade.compiled()).as("%s compiles: %s", name, grade.compilerOutput()).isTrue();
            assertThat(grade.results()).as("%s: one result per test", name).hasSameSizeAs(grader.tests());
            for (String tag : tags) {
                List<TestResult> tagged = grade.results().stream().filter(result -> result.tags().contains(tag)).toList();
                assertThat(tagged).as("%s must lose points on a test tagged %s", name, tag).anyMatch(result -> !result.passed());
                if (!phrases.isEmpty()) {
                    // A method that loops, exits or overflows earns nothing anywhere, and every such test says why.
                    for (TestResult result : tagged) {
                        assertThat(result.passed()).as("%s: %s must not earn points", name, result.test().name()).isFalse();
                        assertThat(result.message()).as("%s: why %s failed", name, result.test().name()).contains(phrases.get(0));
                    }
                }
            }
            if (tags.isEmpty()) {
                assertThat(grade.score()).as("%s is otherwise correct: its honest score is full marks; failures: %s",
                        name, grade.results().stream().filter(result -> !result.passed())
                                .map(result -> result.test().name() + ": " + result.message()).toList())
                        .isEqualTo(grade.maxScore());
            }
            Path out = dir.resolve("report-" + name);
            Reports.write(grade, out, GradingPolicy.load(), EnumSet.allOf(Platform.class), ReportAgreement.CLASSROOM50);
            long flooded = grade.results().stream().filter(result -> result.message().length() > ReportText.TEST_OUTPUT_LIMIT).count();
            assertThat(OutputLimits.assertWithinLimits(out.resolve(GradescopeResults.FILE)))
                    .as("%s: the tests of results.json whose output says it was cut, one per message over the limit", name)
                    .isEqualTo(flooded);
            for (Platform platform : Platform.values()) {
                OutputLimits.assertWithinLimits(platform.file(out));
            }
            // GitHub refuses a longer Release body, and Classroom 50 then records no submission at all.
            assertThat(Files.readString(out.resolve("classroom50/release-body.md")).length())
                    .as("%s: the length of Classroom 50's Release body, against GitHub's 125,000 characters", name).isLessThan(125_000);
            String summary = Files.readString(out.resolve("summary.md"));
            for (String phrase : phrases) {
                assertThat(summary).as("%s: the report says what happened", name).contains(phrase);
            }
            assertThat(ResultsFile.read(out.resolve(ResultsFile.FILE)).score())
                    .as("%s: the reported score is the grader's own", name).isEqualTo(grade.score());
        }));
    }

    @TestFactory
    @Order(2)
    @DisplayName("each hostile submission gets the same verdict on every test when graded again beside a CPU hog, with"
            + " four times as many grades at once as cores")
    Stream<DynamicTest> hostileVerdictsDoNotMoveUnderOverload() throws Exception {
        Map<Path, Grade> again = new java.util.LinkedHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(CpuHog.overloadJobs());
        try (CpuHog hog = CpuHog.start(dir.resolve("cpu-hog.log").toFile())) {
            Map<Path, Future<Grade>> started = new java.util.LinkedHashMap<>();
            for (Path entry : FIRST.keySet()) {
                Path submission = CatalogSubmissions.assemble(entry, dir.resolve("again-" + entry.getFileName()));
                started.put(entry, pool.submit(() -> grader.grade(submission, "hostile/" + UUID.randomUUID())));
            }
            for (Map.Entry<Path, Future<Grade>> grade : started.entrySet()) {
                again.put(grade.getKey(), grade.getValue().get());
            }
        } finally {
            pool.shutdownNow();
        }
        return again.entrySet().stream().map(graded -> DynamicTest.dynamicTest(graded.getKey().getFileName().toString(), () ->
                assertThat(Verdicts.differences(graded.getKey().getFileName().toString(), FIRST.get(graded.getKey()), graded.getValue()))
                        .as("%s graded alone on a quiet machine and again under overload: every test's verdict must be the same",
                                graded.getKey().getFileName())
                        .isEmpty()));
    }
}
