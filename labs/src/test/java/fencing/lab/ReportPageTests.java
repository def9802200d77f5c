package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.browser.Browser;
import fencing.lab.report.Reports;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/** The default case's {@code report.html}, opened in a real headless Chromium as a student opens it: the timeline and the replay. */
@Tag("etcd")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(180)
class ReportPageTests {

    private static final Path KIT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
    /** How many events in the last half-second make the timeline draw its end again, zoomed ({@code Timeline}). */
    private static final int CROWDED = 5;

    @RegisterExtension
    static final Browser browser = new Browser("screenshots");

    private StudyRun run;
    private Evidence.Repeat repeat;

    @BeforeAll
    void runTheDefaultCaseOnce(@TempDir Path dir) throws IOException {
        run = StudyRun.of(dir);
        assertThat(run.exitCode).as("the default case ends as expected; it said:%n%s%s", run.out, run.err).isZero();
        repeat = Evidence.read(dir.resolve("evidence.json")).repeats().get(0);
    }

    @Test
    @DisplayName("the rendered page has lanes A, etcd, B and sink with the real tokens and verdicts, and a zoomed inset of its crowded end")
    void pageRendersTheLanesTokensVerdictsAndTheInset() {
        WebDriver page = browser.open(run.dir.resolve("report.html"));
        long a = repeat.lock().a().token();
        long verdicts = repeat.trace().events().stream().filter(e -> e.kind() == EventKind.VERDICT).count();

        assertThat(page.findElement(By.id("rendered-check")).getText()).as("the page's own script ran and counted what it drew")
                .isEqualTo("Rendered: 4 lanes and " + verdicts + " sink verdicts on the timelines.");
        assertThat(page.findElements(By.cssSelector("svg.timeline g.lane")).stream().map(g -> g.getAttribute("data-lane")).toList())
                .as("the timeline's lanes, top to bottom").containsExactly("A", "etcd", "B", "sink");
        assertThat(page.findElement(By.cssSelector("svg.timeline")).getText()).as("the timeline shows A's real token %d and the fenced verdict", a)
                .contains("acquires token " + a).contains("fenced: A-late (token " + a + ") rejected");
        // How many events fall into the last half-second is the machine's pace: the inset is drawn where they crowd.
        long crowded = lastHalfSecond(repeat);
        assertThat(page.findElements(By.cssSelector("svg.timeline-inset g.event")))
                .as("the zoomed inset draws every event of the last half-second where at least 5 crowd into it, and is left out"
                        + " where fewer do (%d here)", crowded)
                .hasSize(crowded >= CROWDED ? (int) crowded : 0);
    }

    @Test
    @DisplayName("the zoomed inset draws every event of a crowded end, on the report of a recorded run (solutions/evidence.json)")
    void insetDrawsEveryEventOfACrowdedEnd(@TempDir Path dir) throws IOException {
        Evidence.Study recorded = Evidence.read(KIT.resolve("solutions/evidence.json"));
        Reports.write(dir, recorded);
        long crowded = lastHalfSecond(recorded.repeats().get(0));
        assertThat(crowded).as("the recorded run's last half-second is crowded: the late write, the verdicts and the reads")
                .isGreaterThanOrEqualTo(CROWDED);

        WebDriver page = browser.open(dir.resolve("report.html"));
        assertThat(page.findElements(By.cssSelector("svg.timeline-inset g.event")))
                .as("the zoomed inset draws every event of the recorded run's last half-second (%d of them)", crowded)
                .hasSize((int) crowded);
    }

    private static long lastHalfSecond(Evidence.Repeat repeat) {
        double last = repeat.trace().events().stream().mapToDouble(Evidence.Event::tMillis).max().orElse(0);
        return repeat.trace().events().stream().filter(e -> e.tMillis() >= last - 500).count();
    }

    @Test
    @DisplayName("the replay steps through every event by keyboard, back and forth by mouse, and ends at the evidence's final state")
    void replayStepsThroughEveryEventAndEndsAtTheFinalState() {
        WebDriver page = browser.open(run.dir.resolve("report.html"));
        WebElement box = page.findElement(By.id("replay-1"));
        WebElement scrubber = box.findElement(By.cssSelector(".scrubber"));
        List<Evidence.Event> events = repeat.trace().events();

        scrubber.sendKeys(Keys.HOME);
        assertThat(shownStep(box)).as("Home goes to the first event").isZero();
        assertThat(box.findElement(By.cssSelector(".step-label")).getText()).as("the first event's label").isEqualTo(events.get(0).label());
        for (int i = 1; i < events.size(); i++) {
            scrubber.sendKeys(Keys.ARROW_RIGHT);
            assertThat(shownStep(box)).as("→ moves one event on, to event %d of %d", i, events.size()).isEqualTo(i);
            assertThat(box.findElement(By.cssSelector(".step-label")).getText()).as("event %d's label", i).isEqualTo(events.get(i).label());
        }
        scrubber.sendKeys(Keys.ARROW_RIGHT);
        assertThat(shownStep(box)).as("→ past the last event stays on it").isEqualTo(events.size() - 1);
        for (Evidence.ModeOutcome mode : repeat.modes().values()) {
            WebElement row = box.findElement(By.cssSelector(".replay-sinks tr[data-mode='" + mode.mode() + "']"));
            assertThat(row.findElement(By.cssSelector(".value")).getText()).as("%s's value after the last event is the final read's", mode.mode())
                    .isEqualTo(mode.finalValue());
            assertThat(row.findElement(By.cssSelector(".mark")).getText()).as("%s's mark after the last event is the final read's", mode.mode())
                    .isEqualTo(Long.toString(mode.finalHighWaterMark()));
        }
        assertThat(box.findElement(By.cssSelector(".etcd-says")).getText()).as("etcd's view after B released: no lock key")
                .startsWith("no lock key");

        box.findElement(By.cssSelector("button.prev")).click();
        assertThat(shownStep(box)).as("the mouse on 'previous' goes one event back").isEqualTo(events.size() - 2);
        box.findElement(By.cssSelector(".replay-events li[data-step='0']")).click();
        assertThat(shownStep(box)).as("a click on the first event in the list jumps to it").isZero();
        assertThat(box.findElement(By.cssSelector(".replay-sinks tr[data-mode='fenced'] .value")).getText())
                .as("before any write, the fenced sink holds nothing yet").isEqualTo("(nothing written yet)");
        box.findElement(By.cssSelector("button.last")).click();
        assertThat(shownStep(box)).as("'last' goes to the last event").isEqualTo(events.size() - 1);
        browser.screenshot("report-replay");
    }

    @Test
    @DisplayName("highlighting the fenced mode marks its rows and says what it did with each write, as the evidence records")
    void highlightingAModeShowsWhatItDidWithEachWrite() {
        WebDriver page = browser.open(run.dir.resolve("report.html"));
        WebElement box = page.findElement(By.id("replay-1"));

        box.findElement(By.cssSelector(".mode-picker button[data-pick='fenced']")).click();

        long fencedEvents = repeat.trace().events().stream().filter(e -> "fenced".equals(e.about().mode())).count();
        assertThat(box.findElements(By.cssSelector(".replay-events li.highlight"))).as("every event about the fenced mode is highlighted")
                .hasSize((int) fencedEvents);
        assertThat(box.findElements(By.cssSelector(".replay-sinks tr.highlight")).stream().map(r -> r.getAttribute("data-mode")).toList())
                .as("only the fenced row is highlighted").containsExactly("fenced");
        assertThat(box.findElement(By.cssSelector(".mode-story")).getText()).as("the fenced mode's story, from the verdicts")
                .isEqualTo("fenced: accepted B's write (token " + repeat.lock().b().token() + "), then rejected A's write (token " + repeat.lock().a().token() + ")");
        box.findElement(By.cssSelector(".mode-picker button[data-pick='']")).click();
        assertThat(box.findElements(By.cssSelector(".replay-events li.highlight"))).as("'none' takes the highlight away").isEmpty();
    }

    @Test
    @DisplayName("axe-core finds no serious or critical accessibility violation on the report of a recorded run, nor on this run's")
    void axeFindsNoSeriousViolation(@TempDir Path dir) throws IOException {
        Reports.write(dir, Evidence.read(KIT.resolve("solutions/evidence.json")));
        browser.open(dir.resolve("report.html"));
        assertThat(browser.seriousViolations()).as("axe-core's serious and critical violations on the recorded run's report")
                .isEmpty();
        browser.open(run.dir.resolve("report.html"));
        assertThat(browser.seriousViolations()).as("axe-core's serious and critical violations on this run's report")
                .isEmpty();
    }

    private static int shownStep(WebElement box) {
        return Integer.parseInt(box.getAttribute("data-step"));
    }
}
