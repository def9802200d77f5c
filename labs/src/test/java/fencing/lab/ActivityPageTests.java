package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.browser.Browser;
import fencing.lab.history.SinkModel;
import fencing.lab.history.SinkModel.Decision;
import fencing.lab.history.SinkModel.State;
import fencing.lab.sink.Mode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chromium.HasCdp;

/**
 * The lesson's activity, {@code labs/activity.html}, played in a real headless Chromium: every order, mode and scenario it
 * shows is held to the kit's own model of the sinks ({@link SinkModel}, the one the history checker uses), so that the
 * page cannot teach a rule the hidden tests do not grade.
 */
@Timeout(180)
class ActivityPageTests {

    private static final Path PAGE = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().resolve("activity.html");
    private static final String SYNTHETIC = "Runs in your browser with synthetic state. This is not a live etcd cluster.";
    private static final Pattern NO_SCRIPT = Pattern.compile("<script>.*?</script>", Pattern.DOTALL);

    @RegisterExtension
    static final Browser browser = new Browser("screenshots");

    @Test
    @DisplayName("the story, played with the keyboard alone, shows each order's verdicts, values and marks as the kit's model decides them")
    void storyPlaysEveryOrderAsTheKitsModelDecides() {
        WebDriver page = browser.open(PAGE);
        assertThat(shownStep(page)).as("the page opens on the first step, one step shown at a time").isEqualTo("step-1");
        assertThat(text(page, "etcd-view")).as("etcd's view at the first step: A's key and its create_revision")
                .contains("held by A").contains("create_revision 7");
        assertThat(text(page, "a-view")).as("what A believes at the first step").contains("token 7");

        press(page, Keys.ARROW_RIGHT);
        assertThat(shownStep(page)).as("the right arrow goes to the next step").isEqualTo("step-2");
        assertThat(announced(page)).as("the step change is announced in the live region").startsWith("Step 2 of 7: A pauses");
        press(page, Keys.ARROW_RIGHT);
        assertThat(shownStep(page)).as("the step that asks for a prediction keeps the student until one is given").isEqualTo("step-2");
        assertThat(explanationShown(page, "q-timer")).as("the timer question's answer is hidden before a prediction").isFalse();
        WebElement yes = page.findElement(By.cssSelector("#q-timer input[value=yes]"));
        yes.sendKeys(Keys.SPACE);
        page.findElement(By.cssSelector("#q-timer .check")).sendKeys(Keys.ENTER);
        assertThat(page.findElement(By.cssSelector("#q-timer .feedback")).getText()).as("a wrong prediction is called wrong")
                .startsWith("Not quite");
        assertThat(explanationShown(page, "q-timer")).as("the answer and its reason, shown once a prediction is given").isTrue();
        assertThat(announced(page)).as("the verdict is announced").contains("Not quite").contains("Answer: no.");

        press(page, Keys.ARROW_RIGHT);
        assertThat(shownStep(page)).isEqualTo("step-3");
        assertThat(page.findElement(By.id("next")).isEnabled()).as("the lease does not expire by a timer: Next waits for the button").isFalse();
        page.findElement(By.id("expire")).sendKeys(Keys.ENTER);
        assertThat(text(page, "etcd-view")).as("etcd's view once the student expired A's lease").contains("no key /fencing/lock");
        assertThat(text(page, "a-view")).as("A, paused, still believes").contains("still believes it holds the lock with token 7");
        assertThat(announced(page)).as("the expiry is announced").startsWith("A's lease expired.");
        browser.screenshot("activity-expired");

        press(page, Keys.ARROW_RIGHT);
        assertThat(text(page, "etcd-view")).as("etcd's view once B took the lock: a larger create_revision")
                .contains("held by B").contains("create_revision 8");
        assertThat(text(page, "b-view")).contains("token 8");
        press(page, Keys.ARROW_RIGHT);
        assertThat(shownStep(page)).isEqualTo("step-5");

        WebElement box = page.findElement(By.id("story-predict"));
        box.findElement(By.cssSelector(".check")).sendKeys(Keys.ENTER);
        assertThat(box.findElements(By.cssSelector("table.verdicts"))).as("without a prediction the writes are not shown").isEmpty();
        for (String order : List.of("late-write", "pre-contact")) {
            page.findElement(By.cssSelector("input[name=order][value=" + order + "]")).sendKeys(Keys.SPACE);
            assertThat(box.findElements(By.cssSelector("table.verdicts"))).as("no outcome of %s before a prediction", order).isEmpty();
            for (WebElement select : box.findElements(By.tagName("select"))) {
                choose(select, "B-current");
            }
            box.findElement(By.cssSelector(".check")).sendKeys(Keys.ENTER);
            List<Row> rows = heldToTheModel(page, order);
            assertThat(rows).extracting(Row::token).as("%s: the tokens of the writes in the order chosen", order)
                    .containsExactlyElementsOf(order.equals("late-write") ? List.of(8L, 7L) : List.of(7L, 8L));
            State fenced = finalState(page, order, Mode.FENCED);
            assertThat(box.findElement(By.cssSelector(".feedback")).getText())
                    .as("%s: the page says whether each prediction was right", order)
                    .startsWith(order.equals("late-write") ? "Not quite." : "Right.");
            for (Mode mode : Mode.values()) {
                WebElement sink = page.findElement(By.cssSelector("#state [data-sink=" + mode.text() + "]"));
                State shown = new State(emptyAsNull(sink.getAttribute("data-value")), Long.parseLong(sink.getAttribute("data-mark")));
                assertThat(shown).as("%s: the state panel's %s sink is the table's last state", order, mode).isEqualTo(finalState(page, order, mode));
            }
            assertThat(fenced).as("%s: the fenced sink ends with B's value and mark", order).isEqualTo(new State("B-current", 8));
            if (order.equals("late-write")) {
                browser.screenshot("activity-late-write");
            }
        }
        WebElement late = page.findElement(By.cssSelector("table.verdicts tr.write[data-token='7'] td[data-mode=fenced]"));
        assertThat(late.getAttribute("data-verdict")).as("pre-contact: the high-water mark lets A's early late write in").isEqualTo("accepted");

        page.findElement(By.cssSelector("input[name=order][value=late-write]")).sendKeys(Keys.SPACE);
        assertThat(page.findElements(By.cssSelector("#story-predict table.verdicts"))).as("another order asks for a new prediction").isEmpty();
        for (WebElement select : page.findElements(By.cssSelector("#story-predict select"))) {
            choose(select, "A-late");
        }
        page.findElement(By.cssSelector("#story-predict .check")).sendKeys(Keys.ENTER);
        WebElement rejected = page.findElement(By.cssSelector("table.verdicts tr.write[data-token='7'] td[data-mode=fenced]"));
        assertThat(rejected.getText()).as("the fenced verdict on A's late write, in the lesson's words")
                .startsWith("rejected: token 7 is below the high-water mark 8: the resource has seen a newer owner");

        press(page, Keys.ARROW_RIGHT);
        assertThat(shownStep(page)).isEqualTo("step-6");
        State afterB = finalState(page, "late-write", Mode.FENCED);
        page.findElement(By.cssSelector("#q-mark input")).sendKeys("8");
        page.findElement(By.cssSelector("#q-mark .check")).sendKeys(Keys.ENTER);
        assertThat(page.findElement(By.cssSelector("#q-mark")).getAttribute("data-answer")).as("the mark the page asks for is the model's")
                .isEqualTo(String.valueOf(afterB.mark()));
        assertThat(page.findElement(By.cssSelector("#q-mark .feedback")).getText()).isEqualTo("Right.");
        for (String id : List.of("q-seven", "q-nine")) {
            WebElement markQuestion = page.findElement(By.id(id));
            long token = Long.parseLong(markQuestion.getAttribute("data-token"));
            Decision decision = SinkModel.decide(Mode.FENCED, afterB, token, "W", true);
            assertThat(markQuestion.getAttribute("data-answer")).as("the page's answer for token %d at mark %d is the model's", token, afterB.mark())
                    .isEqualTo(decision.accepted() ? "accept" : "reject");
            markQuestion.findElement(By.cssSelector("input[value=accept]")).sendKeys(Keys.SPACE);
            markQuestion.findElement(By.cssSelector(".check")).sendKeys(Keys.ENTER);
            assertThat(markQuestion.findElement(By.cssSelector(".feedback")).getText()).as("the page says whether 'accept' was right for token %d", token)
                    .isEqualTo(decision.accepted() ? "Right." : "Not quite: you said accept.");
        }
        browser.screenshot("activity-mark");

        press(page, Keys.END);
        assertThat(shownStep(page)).as("End goes to the last step reached").isEqualTo("step-7");
        press(page, Keys.HOME);
        assertThat(shownStep(page)).as("Home goes to the first step").isEqualTo("step-1");
        page.findElement(By.id("last")).click();
        assertThat(shownStep(page)).as("the Last button").isEqualTo("step-7");
        page.findElement(By.id("previous")).click();
        assertThat(shownStep(page)).as("the Previous button").isEqualTo("step-6");
        page.findElement(By.id("first")).click();
        assertThat(shownStep(page)).as("the First button").isEqualTo("step-1");
    }

    @Test
    @DisplayName("beyond the lab's runs: the retry, the forged token and the restore with and without the epoch, each as the kit's model decides")
    void scenariosBeyondTheLabAreDecidedAsTheKitsModelDecides() {
        WebDriver page = browser.open(PAGE);
        reveal(page, "retry", Map.of(), "2");
        List<Row> retry = heldToTheModel(page, "retry");
        assertThat(retry).extracting(row -> row.verdicts().get(Mode.FENCED)).as("an equal-token retry: fencing does not deduplicate")
                .containsExactly(true, true);

        reveal(page, "forged", Map.of(Mode.FENCED, "B-current", Mode.CURRENT_OWNER, "B-next"), null);
        heldToTheModel(page, "forged");
        assertThat(finalState(page, "forged", Mode.FENCED)).as("a forged large token: accepted by the mark, which then locks B out")
                .isEqualTo(new State("C-forged", 1_000_000_000_000L));
        assertThat(finalState(page, "forged", Mode.CURRENT_OWNER)).as("a forged large token: refused by the owner check")
                .isEqualTo(new State("B-next", 8));

        reveal(page, "restore", Map.of(Mode.FENCED, "B-late"), null);
        heldToTheModel(page, "restore");
        assertThat(finalState(page, "restore", Mode.FENCED)).as("a restore that reuses revisions: the stale holder's 8 wins")
                .isEqualTo(new State("B-late", 8));
        page.findElement(By.id("epoch-fix")).sendKeys(Keys.SPACE);
        assertThat(page.findElements(By.cssSelector("table.verdicts[data-scenario=restore]"))).as("the option hides the outcome again").isEmpty();
        reveal(page, "restore", Map.of(Mode.FENCED, "C-after-restore"), null);
        heldToTheModel(page, "restore-epoch");
        assertThat(finalState(page, "restore-epoch", Mode.FENCED)).as("with the epoch fix the new holder's token is larger")
                .isEqualTo(new State("C-after-restore", (1L << 40) | 6));
    }

    @Test
    @DisplayName("a self-check question shows its answer only after an answer is given, and says whether it was right")
    void selfCheckAnswersOnlyAfterAnAnswer() {
        WebDriver page = browser.open(PAGE);
        for (String question : List.of("q-lease-id", "q-idempotency")) {
            WebElement box = page.findElement(By.id(question));
            box.findElement(By.cssSelector(".check")).click();
            assertThat(box.findElement(By.cssSelector(".feedback")).getText()).as("%s: no answer, no reveal", question)
                    .isEqualTo("Give your prediction first.");
            assertThat(explanationShown(page, question)).as("%s: the explanation is still hidden", question).isFalse();
            box.findElement(By.cssSelector("input[value=no]")).click();
            box.findElement(By.cssSelector(".check")).click();
            assertThat(box.findElement(By.cssSelector(".feedback")).getText()).as("%s: 'no' is right", question).isEqualTo("Right.");
            assertThat(box.findElement(By.cssSelector(".explain")).getText()).as("%s: the explanation", question).startsWith("Answer: no.");
        }
        assertThat(page.findElement(By.cssSelector("#q-lease-id .explain")).getText()).contains("create_revision");
        assertThat(page.findElement(By.cssSelector("#q-idempotency .explain")).getText()).contains("accepted twice");
    }

    @Test
    @DisplayName("the quorum widget gives floor(n/2)+1 and n minus it for every size it takes")
    void quorumWidgetWorksTheArithmetic() {
        WebDriver page = browser.open(PAGE);
        WebElement members = page.findElement(By.id("members"));
        WebElement out = page.findElement(By.id("quorum-out"));
        for (int n = 1; n <= 15; n++) {
            members.clear();
            members.sendKeys(String.valueOf(n));
            int quorum = n / 2 + 1;
            assertThat(out.getAttribute("data-quorum")).as("quorum of %d members", n).isEqualTo(String.valueOf(quorum));
            assertThat(out.getAttribute("data-tolerated")).as("failures tolerated by %d members", n).isEqualTo(String.valueOf(n - quorum));
        }
    }

    @Test
    @DisplayName("the page is self-contained: a CSP that forbids every fetch, no reference out, and no request made while it is played")
    void pageMakesNoNetworkRequest() throws IOException {
        String html = Files.readString(PAGE, StandardCharsets.UTF_8);
        assertThat(html).as("the Content-Security-Policy meta tag").contains(
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:;");
        assertThat(html).as("nothing fetched: no external script, style sheet, image, font or frame")
                .doesNotContain(" src=").doesNotContain("<link").doesNotContain("@import").doesNotContain("url(").doesNotContain("fetch(")
                .doesNotContain("XMLHttpRequest").doesNotContain("http://").doesNotContain("https://");

        WebDriver page = browser.open(PAGE);
        browser.script("window.kitViolations = []; document.addEventListener('securitypolicyviolation',"
                + " function (e) { window.kitViolations.push(e.blockedURI); });");
        assertThat(page.findElement(By.id("synthetic")).getText()).as("the page says its state is synthetic").startsWith(SYNTHETIC);
        assertThat(page.findElement(By.cssSelector("a[href='../study/late-write/report.html']")).getText())
                .as("the link to the student's own evidence").isEqualTo("study/late-write/report.html");
        assertThat(page.findElement(By.cssSelector("a[href='../README.md#leases-locks-and-fencing-tokens']")).getText())
                .as("the link to the concept, the handout README's first section").isEqualTo("Leases, locks and fencing tokens");
        reveal(page, "retry", Map.of(), "1");
        reveal(page, "forged", Map.of(Mode.FENCED, "C-forged", Mode.CURRENT_OWNER, "B-next"), null);
        page.findElement(By.id("members")).sendKeys("5");
        assertThat(browser.script("return performance.getEntriesByType('resource').length")).as("resources the page loaded").isEqualTo(0L);
        assertThat((List<?>) browser.script("return window.kitViolations")).as("requests the policy had to block").isEmpty();
    }

    @Test
    @DisplayName("without JavaScript every step, question and answer is on the page as plain text")
    void readableWithoutJavaScript(@TempDir Path dir) throws IOException {
        Path plain = dir.resolve("activity.html");
        Files.writeString(plain, NO_SCRIPT.matcher(Files.readString(PAGE, StandardCharsets.UTF_8)).replaceAll(""), StandardCharsets.UTF_8);
        WebDriver page = browser.open(plain);
        for (int step = 1; step <= 7; step++) {
            assertThat(page.findElement(By.id("step-" + step)).isDisplayed()).as("step %d is shown", step).isTrue();
        }
        assertThat(page.findElements(By.cssSelector(".explain"))).as("every answer is shown")
                .isNotEmpty().allMatch(WebElement::isDisplayed);
        assertThat(page.findElement(By.tagName("main")).getText()).as("the outcomes of both orders, as text")
                .contains("B first (late-write)").contains("A first (pre-contact)")
                .contains("Token 7 is below the high-water mark 8: the resource has seen a newer owner");
        assertThat(page.findElement(By.id("story-nav")).isDisplayed()).as("the step buttons, which need the script, are not").isFalse();
        assertThat(page.findElement(By.cssSelector("table.nojs-only")).getText()).as("the quorum table").contains("5 3 2");
    }

    @Test
    @DisplayName("under prefers-reduced-motion nothing on the page moves")
    void reducedMotionIsRespected() {
        WebDriver page = browser.driver();
        ((HasCdp) page).executeCdpCommand("Emulation.setEmulatedMedia",
                Map.of("features", List.of(Map.of("name", "prefers-reduced-motion", "value", "reduce"))));
        try {
            browser.open(PAGE);
            press(page, Keys.ARROW_RIGHT);
            assertThat(page.findElements(By.cssSelector(".changed"))).as("no element flashes when the state changes").isEmpty();
        } finally {
            ((HasCdp) page).executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
        }
        browser.open(PAGE);
        press(page, Keys.ARROW_RIGHT);
        assertThat(page.findElements(By.cssSelector(".changed"))).as("without the preference, a changed state flashes").isNotEmpty();
    }

    @Test
    @DisplayName("axe-core finds no serious or critical accessibility violation, before and after the writes are shown")
    void axeFindsNoSeriousViolation() {
        WebDriver page = browser.open(PAGE);
        assertThat(browser.seriousViolations()).as("axe-core's serious and critical violations on the opened page").isEmpty();
        reveal(page, "forged", Map.of(Mode.FENCED, "C-forged", Mode.CURRENT_OWNER, "B-next"), null);
        page.findElement(By.cssSelector("#q-lease-id input[value=yes]")).click();
        page.findElement(By.cssSelector("#q-lease-id .check")).click();
        assertThat(browser.seriousViolations()).as("axe-core's serious and critical violations with a verdict table and feedback shown").isEmpty();
    }

    /** One write of a shown scenario, and each mode's verdict on it. */
    private record Row(long token, String value, Map<Mode, Boolean> verdicts) {
    }

    /**
     * Checks every verdict, rule, value and mark of {@code scenario}'s table against the model, write by write from empty
     * sinks, with the owner check answered from the lock's current holder the page shows, and returns the rows.
     */
    private static List<Row> heldToTheModel(WebDriver page, String scenario) {
        WebElement table = page.findElement(By.cssSelector("table.verdicts[data-scenario='" + scenario + "']"));
        List<WebElement> writes = table.findElements(By.cssSelector("tr.write"));
        assertThat(writes).as("%s: writes shown", scenario).isNotEmpty();
        Map<Mode, State> states = new java.util.EnumMap<>(Mode.class);
        for (Mode mode : Mode.values()) {
            states.put(mode, State.EMPTY);
        }
        List<Row> rows = new ArrayList<>();
        for (WebElement write : writes) {
            long token = Long.parseLong(write.getAttribute("data-token"));
            String value = write.getAttribute("data-value");
            String owner = write.getAttribute("data-owner");
            boolean current = !owner.isEmpty() && Long.parseLong(owner) == token;
            Map<Mode, Boolean> verdicts = new java.util.EnumMap<>(Mode.class);
            for (Mode mode : Mode.values()) {
                WebElement cell = write.findElement(By.cssSelector("td[data-mode='" + mode.text() + "']"));
                Decision expected = SinkModel.decide(mode, states.get(mode), token, value, current);
                String what = scenario + ", " + mode + ", " + value + " with token " + token;
                String verdict = expected.accepted() ? "accepted" : "rejected";
                assertThat(cell.getAttribute("data-verdict")).as("%s: the verdict", what).isEqualTo(verdict);
                assertThat(cell.getText()).as("%s: the verdict as read", what).startsWith(verdict + ": ");
                assertThat(cell.getAttribute("data-rule")).as("%s: the rule that decided it", what).isEqualTo(expected.rule().text());
                assertThat(emptyAsNull(cell.getAttribute("data-value-after"))).as("%s: the value after it", what).isEqualTo(expected.after().value());
                assertThat(Long.parseLong(cell.getAttribute("data-mark-after"))).as("%s: the mark after it", what).isEqualTo(expected.after().mark());
                assertThat(cell.getText()).as("%s: the value and mark as read", what)
                        .endsWith("value " + (expected.after().value() == null ? "none" : expected.after().value()) + ", mark " + expected.after().mark());
                states.put(mode, expected.after());
                verdicts.put(mode, expected.accepted());
            }
            rows.add(new Row(token, value, verdicts));
        }
        for (Mode mode : Mode.values()) {
            assertThat(finalState(page, scenario, mode)).as("%s, %s: the final state", scenario, mode).isEqualTo(states.get(mode));
        }
        return rows;
    }

    private static State finalState(WebDriver page, String scenario, Mode mode) {
        WebElement cell = page.findElement(By.cssSelector("table.verdicts[data-scenario='" + scenario + "'] tr.final td[data-mode='" + mode.text() + "']"));
        return new State(emptyAsNull(cell.getAttribute("data-value")), Long.parseLong(cell.getAttribute("data-mark")));
    }

    /** Gives {@code scenario}'s predictions, the chosen value of each mode and the radio answer if any, and shows its writes. */
    private static void reveal(WebDriver page, String scenario, Map<Mode, String> values, String radio) {
        WebElement box = page.findElement(By.cssSelector(".predict-sinks[data-scenario=" + scenario + "]"));
        values.forEach((mode, value) -> choose(box.findElement(By.cssSelector("select[data-mode='" + mode.text() + "']")), value));
        if (radio != null) {
            box.findElement(By.cssSelector("input[type=radio][value='" + radio + "']")).click();
        }
        box.findElement(By.cssSelector(".check")).click();
    }

    private static void choose(WebElement select, String option) {
        select.findElement(By.xpath("option[. = '" + option + "']")).click();
    }

    private static void press(WebDriver page, Keys key) {
        page.findElement(By.tagName("body")).sendKeys(key);
    }

    private static String shownStep(WebDriver page) {
        List<String> shown = page.findElements(By.cssSelector("#steps > .step")).stream().filter(WebElement::isDisplayed)
                .map(step -> step.getAttribute("id")).toList();
        assertThat(shown).as("the steps shown").hasSize(1);
        return shown.get(0);
    }

    private static String text(WebDriver page, String id) {
        return page.findElement(By.id(id)).getText();
    }

    private static String announced(WebDriver page) {
        return page.findElement(By.id("announce")).getAttribute("textContent").strip();
    }

    private static boolean explanationShown(WebDriver page, String question) {
        return page.findElement(By.cssSelector("#" + question + " .explain")).isDisplayed();
    }

    private static String emptyAsNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
