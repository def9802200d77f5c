package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.browser.Browser;
import fencing.lab.history.History;
import fencing.lab.history.HistoryChecker;
import fencing.lab.history.HistoryLine;
import fencing.lab.sink.Mode;
import fencing.support.evidence.Evidence;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/** The chaos case in its short form, for real: writer JVMs, the nemesis, the recorded history and its check. */
@Tag("etcd")
@Timeout(240)
class ChaosStudyTests {

    @RegisterExtension
    static final Browser browser = new Browser("screenshots");

    @Test
    @DisplayName("a short chaos run records a complete history in which the fenced mode accepted no stale write")
    void shortChaosRunLeavesACompleteHistoryWithNoStaleFencedWrite(@TempDir Path dir) throws Exception {
        StudyRun run = StudyRun.of(dir, "--case", "chaos", "--writers", "3", "--duration", "5", "--seed", "11");
        Path history = dir.resolve("history.jsonl");
        HistoryChecker.Findings findings = HistoryChecker.check(history);

        assertThat(run.exitCode).as("the chaos run ends as expected; it said:%n%s%s", run.out, run.err).isZero();
        assertThat(findings.problems()).as("the recorded history is complete and valid").isEmpty();
        assertThat(findings.modes()).as("every mode of the sink server is in the history").containsKeys(Mode.PLAIN, Mode.FENCED, Mode.CURRENT_OWNER);
        assertThat(findings.modes().get(Mode.CURRENT_OWNER).violations())
                .as("the current-owner sink accepts no stale write and no write from a holder whose lease is gone").isZero();
        assertThat(findings.modes().get(Mode.FENCED).writes()).as("the writers wrote to the fenced mode").isPositive();
        assertThat(findings.modes().get(Mode.FENCED).staleAccepted()).as("a fenced sink accepts no token below one it accepted before").isZero();
        assertThat(run.out).as("the run tells the seed to replay with").contains("--seed 11");
        assertThat(run.file("report.html")).as("the report plots the accepted tokens per mode").contains("data-mode=\"fenced\"");
        Evidence.Study evidence = Evidence.read(dir.resolve("evidence.json"));
        assertThat(evidence.schema()).as("the chaos case's evidence.json is of the one versioned schema").isEqualTo(Evidence.SCHEMA);
        assertThat(evidence.chaos().seed()).as("the evidence names the seed to replay with").isEqualTo(11);
        assertThat(evidence.chaos().modes().get("plain").staleAccepted()).as("the evidence's counts are the checker's")
                .isEqualTo(findings.modes().get(Mode.PLAIN).staleAccepted());
        assertThat(evidence.chaos().modes().get("fenced").writes()).as("the evidence's write count is the checker's")
                .isEqualTo(findings.modes().get(Mode.FENCED).writes());

        historyViewShowsEveryWriteInItsWritersLane(dir, evidence, findings);

        List<String> lines = Files.readAllLines(history);
        Path cut = Files.write(dir.resolve("cut.jsonl"), lines.subList(0, lines.size() - 1));
        assertThat(HistoryChecker.check(cut).verdict()).as("the same history without its end line cannot be judged")
                .isEqualTo(HistoryChecker.Verdict.UNKNOWN);
    }

    /** The history view, in a real headless Chromium: a lane per writer, every write, the stale ones marked, zoomable, accessible. */
    private static void historyViewShowsEveryWriteInItsWritersLane(Path dir, Evidence.Study evidence, HistoryChecker.Findings findings) {
        WebDriver page = browser.open(dir.resolve("report.html"));
        History recorded = History.read(dir.resolve("history.jsonl"));
        int stale = findings.modes().values().stream().mapToInt(HistoryChecker.ModeFindings::staleAccepted).sum();
        int expired = findings.modes().values().stream().mapToInt(HistoryChecker.ModeFindings::expiredHolderAccepted).sum();

        assertThat(page.findElements(By.cssSelector("svg.history g.writer-lane")).stream().map(g -> g.getAttribute("data-writer")).toList())
                .as("one lane per writer").containsExactly("w1", "w2", "w3");
        assertThat(page.findElements(By.cssSelector("svg.history rect.write"))).as("every write of the history is drawn as its interval")
                .hasSize(recorded.writes().size());
        assertThat(page.findElements(By.cssSelector("svg.history rect.write[data-stale='true']"))).as("each stale acceptance is marked")
                .hasSize(stale);
        assertThat(page.findElements(By.cssSelector("svg.history rect.write[data-expired-holder='true']")).size() + stale)
                .as("each accepted write from an expired holder is marked (a stale one is drawn as stale)").isGreaterThanOrEqualTo(expired);
        assertThat(page.findElement(By.id("seed")).getText()).as("the seed to replay with").isEqualTo(Long.toString(evidence.chaos().seed()));
        assertThat(browser.seriousViolations()).as("axe-core's serious and critical violations on the chaos run's history view").isEmpty();
        WebElement window = page.findElement(By.id("history-window"));
        String whole = window.getText();
        page.findElement(By.id("zoom-in")).click();
        page.findElement(By.id("zoom-in")).click();
        String zoomed = window.getText();
        assertThat(zoomed).as("zooming in twice shows a quarter of the run, not all of it (%s)", whole).isNotEqualTo(whole);
        assertThat(page.findElement(By.id("history")).getDomAttribute("viewBox")).as("a quarter of the picture's width").contains(" 250 ");
        page.findElement(By.id("history")).sendKeys("0");
        assertThat(window.getText()).as("the key 0 shows the whole run again").isEqualTo(whole);
        browser.screenshot("chaos-history");
    }

    @Test
    @DisplayName("a chaos run with partitions cuts writers off from etcd and heals them, and the fenced and current-owner modes still accept no stale write")
    void chaosRunWithPartitionsCutsAndHealsWritersAndTheFencedModesHold(@TempDir Path dir) throws Exception {
        // Seed 11 with three writers deals a freeze at about 3.2 s, a cut at 4.3 s healed at 6.7 s, and another freeze (FaultPlanTests steps it).
        StudyRun run = StudyRun.of(dir, "--case", "chaos", "--writers", "3", "--duration", "8", "--seed", "11", "--faults", "freeze,partition");
        HistoryChecker.Findings findings = HistoryChecker.check(dir.resolve("history.jsonl"));
        History recorded = History.read(dir.resolve("history.jsonl"));
        long cuts = recorded.faults().stream().filter(f -> f.action() == HistoryLine.Fault.Action.CUT).count();
        long heals = recorded.faults().stream().filter(f -> f.action() == HistoryLine.Fault.Action.HEAL).count();
        long freezes = recorded.faults().stream().filter(f -> f.action() == HistoryLine.Fault.Action.FREEZE).count();
        Evidence.Study evidence = Evidence.read(dir.resolve("evidence.json"));

        assertThat(run.exitCode).as("the chaos run with partitions ends as expected; it said:%n%s%s", run.out, run.err).isZero();
        assertThat(findings.problems()).as("the recorded history is complete and valid, cuts and all").isEmpty();
        assertThat(cuts).as("the nemesis cut a writer off from etcd at least once; its faults: %s", recorded.faults()).isPositive();
        assertThat(heals).as("every cut is healed by the end of the run; its faults: %s", recorded.faults()).isEqualTo(cuts);
        assertThat(findings.modes().get(Mode.FENCED).staleAccepted()).as("a fenced sink accepts no token below one it accepted before").isZero();
        assertThat(findings.modes().get(Mode.CURRENT_OWNER).violations())
                .as("the current-owner sink accepts no stale write and no write from a holder whose lease is gone").isZero();
        assertThat(evidence.chaos().partitions()).as("the evidence counts the cuts beside the freezes").isEqualTo((int) cuts);
        assertThat(evidence.chaos().freezes()).as("the evidence counts the freezes apart from the cuts").isEqualTo((int) freezes);
        assertThat(run.out).as("the run tells the faults to replay with").contains("--seed 11 --faults freeze,partition");
        assertThat(run.file("report.md")).as("the report counts the cuts").contains(cuts + " cuts from etcd");
        assertThat(run.file("report.html")).as("the history view draws each cut, apart from the freezes")
                .contains("<title>cut off from etcd for ").contains("writer cut off from etcd");

        WebDriver page = browser.open(dir.resolve("report.html"));
        assertThat(page.findElements(By.cssSelector("svg.history rect.cut"))).as("one hatched stretch per cut, in its writer's lane").hasSize((int) cuts);
        assertThat(page.findElements(By.cssSelector("svg.history rect.freeze"))).as("one shaded stretch per freeze").hasSize((int) freezes);
        assertThat(page.findElement(By.cssSelector(".history-legend")).getText()).as("the legend names the cut")
                .contains("writer cut off from etcd");
        assertThat(browser.seriousViolations()).as("axe-core's serious and critical violations on the history view with cuts drawn").isEmpty();
        browser.screenshot("chaos-partition-history");
    }

    @Test
    @DisplayName("chaos options are refused outside the chaos case, and out of range within it")
    void chaosOptionsAreCheckedBeforeAnythingStarts(@TempDir Path dir) {
        assertThat(StudyRun.of(dir, "--writers", "3").exitCode).as("--writers with the late-write case").isEqualTo(2);
        assertThat(StudyRun.of(dir, "--case", "chaos", "--writers", "1").exitCode).as("one writer cannot race").isEqualTo(2);
        assertThat(StudyRun.of(dir, "--case", "chaos", "--duration", "0").exitCode).as("a run of no time").isEqualTo(2);
        assertThat(StudyRun.of(dir, "--case", "chaos", "--faults", "partition,cut").exitCode).as("a fault there is not").isEqualTo(2);
        assertThat(dir.resolve("history.jsonl")).as("nothing ran").doesNotExist();
    }
}
