package fencing.grader.classpage;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.browser.Browser;
import fencing.grader.files.GradeStatus;
import fencing.grader.files.GradebookRow;
import fencing.grader.files.ResultsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * {@code gradebook.html} of a really graded class, read in a real headless Chromium: every figure it shows is computed
 * again here, independently, from {@code gradebook.csv} and the students' {@code results.json}.
 */
class ClassPageTests {

    @RegisterExtension
    static final GradedClass CLASS = new GradedClass();

    @RegisterExtension
    static final Browser BROWSER = new Browser("class-page");

    @Test
    @DisplayName("the counts, means, medians and histogram bars are those of gradebook.csv")
    void theScoreFiguresAreTheGradebooks() throws IOException {
        List<GradebookRow> rows = gradebook();
        List<GradebookRow> graded = rows.stream().filter(row -> row.status() == GradeStatus.GRADED).toList();
        WebDriver page = BROWSER.open(CLASS.out().resolve("gradebook.html"));

        assertThat(figure(page, "students")).as("students on the page, against gradebook.csv's rows").isEqualTo(Integer.toString(rows.size()));
        assertThat(figure(page, "graded")).as("graded students, against gradebook.csv's status column").isEqualTo(Integer.toString(graded.size()));
        assertThat(figure(page, "not-graded")).as("not graded students, against gradebook.csv's status column")
                .isEqualTo(Long.toString(rows.stream().filter(row -> row.status() == GradeStatus.NOT_GRADED).count())).isEqualTo("1");
        assertThat(figure(page, "could-not-run")).as("students whose grading could not run: gradebook.csv's empty scores")
                .isEqualTo(Long.toString(rows.stream().filter(row -> row.score() == null).count()));
        for (Part part : List.of(new Part("total", GradebookRow::score, GradebookRow::max),
                new Part("core", GradebookRow::core, GradebookRow::coreMax),
                new Part("extension", GradebookRow::extension, GradebookRow::extensionMax))) {
            int[] scores = graded.stream().mapToInt(row -> part.score().apply(row)).sorted().toArray();
            double mean = Arrays.stream(scores).average().orElseThrow();
            double median = scores.length % 2 == 1 ? scores[scores.length / 2] : (scores[scores.length / 2 - 1] + scores[scores.length / 2]) / 2.0;
            assertThat(figure(page, part.name() + "-mean")).as("the %s mean on the page, against gradebook.csv's %s", part.name(), Arrays.toString(scores))
                    .isEqualTo(String.format(Locale.ROOT, "%.2f", mean));
            assertThat(figure(page, part.name() + "-median")).as("the %s median on the page, against gradebook.csv's %s", part.name(), Arrays.toString(scores))
                    .isEqualTo(String.format(Locale.ROOT, "%.2f", median));
            if (part.name().equals("total")) {
                continue;
            }
            int max = part.max().apply(graded.get(0));
            int[] bins = new int[10];
            Arrays.stream(scores).forEach(score -> bins[Math.min(9, score * 10 / max)]++);
            List<WebElement> bars = page.findElements(By.cssSelector("#" + part.name() + "-scores g.bin"));
            assertThat(bars.stream().map(bar -> bar.findElement(By.cssSelector("text.count")).getText()).toList())
                    .as("the %s histogram's bar labels, against gradebook.csv's %s out of %d", part.name(), Arrays.toString(scores), max)
                    .containsExactlyElementsOf(Arrays.stream(bins).mapToObj(Integer::toString).toList());
        }
    }

    @Test
    @DisplayName("each property's row names exactly the students whose failed tags in gradebook.csv hold it")
    void eachPropertyNamesWhoFailedIt() throws IOException {
        List<GradebookRow> graded = gradebook().stream().filter(row -> row.status() == GradeStatus.GRADED).toList();
        WebDriver page = BROWSER.open(CLASS.out().resolve("gradebook.html"));
        List<WebElement> rows = page.findElements(By.cssSelector("#property-table tbody tr"));

        assertThat(rows).as("property rows on the page").hasSizeGreaterThan(10);
        for (WebElement row : rows) {
            String tag = row.getAttribute("data-tag");
            List<String> failed = graded.stream().filter(line -> line.failedTags().contains(tag))
                    .map(GradebookRow::student).toList();
            List<WebElement> cells = row.findElements(By.tagName("td"));
            assertThat(cells.get(2).getText()).as("the share that failed %s, against gradebook.csv", tag)
                    .isEqualTo(String.format(Locale.ROOT, "%d of %d (%.0f %%)", failed.size(), graded.size(), 100.0 * failed.size() / graded.size()));
            assertThat(cells.get(4).findElements(By.tagName("a")).stream().map(WebElement::getText).toList())
                    .as("the students linked as failing %s, against gradebook.csv", tag).containsExactlyElementsOf(failed);
        }
        WebElement comparison = page.findElement(By.cssSelector("#property-table tr[data-tag='comparison-in-transaction']"));
        assertThat(comparison.getText()).as("the comparison-in-transaction row: the known-wrong entry for it, and its rule")
                .contains("sink-check-outside-transaction").contains("transaction");
    }

    @Test
    @DisplayName("each hidden test's difficulty and discrimination are those of the results.json of the students who scored")
    void eachTestsItemAnalysisIsTheResults() throws IOException {
        List<GradebookRow> graded = gradebook().stream().filter(row -> row.status() == GradeStatus.GRADED)
                .filter(row -> row.score() > 0).toList();
        Map<String, List<double[]>> byTest = new LinkedHashMap<>();
        for (GradebookRow row : graded) {
            ResultsFile results = ResultsFile.read(CLASS.out().resolve(row.student()).resolve(ResultsFile.FILE));
            for (ResultsFile.Test test : results.tests()) {
                if (!test.explanation()) {
                    byTest.computeIfAbsent(test.name(), name -> new ArrayList<>()).add(new double[] {
                        test.passed() ? 1 : 0, results.score() - test.score()});
                }
            }
        }
        WebDriver page = BROWSER.open(CLASS.out().resolve("gradebook.html"));
        List<WebElement> rows = page.findElements(By.cssSelector("#item-table tbody tr"));
        assertThat(figure(page, "attempted")).as("submissions the item analysis counts: gradebook.csv's graded ones scoring above 0")
                .isEqualTo(Integer.toString(graded.size()));

        assertThat(rows).as("hidden tests on the page, against the tests in results.json").hasSameSizeAs(byTest.keySet());
        int marked = 0;
        for (WebElement row : rows) {
            List<WebElement> cells = row.findElements(By.tagName("td"));
            String name = cells.get(0).getText();
            List<double[]> scored = byTest.get(name);
            assertThat(scored).as("the results of %s", name).isNotNull().hasSize(graded.size());
            int passed = (int) scored.stream().filter(pair -> pair[0] == 1).count();
            assertThat(cells.get(3).getText()).as("how many passed %s", name)
                    .isEqualTo(String.format(Locale.ROOT, "%d of %d (%.0f %%)", passed, graded.size(), 100.0 * passed / graded.size()));
            Double r = pearson(scored);
            assertThat(cells.get(4).getText()).as("the discrimination of %s: the correlation of passing it with the rest of the score", name)
                    .isEqualTo(r == null ? "–" : String.format(Locale.ROOT, "%.2f", r));
            String marks = cells.get(5).getText();
            assertThat(marks.contains("everyone passed")).as("whether %s is marked as passed by everyone (%d of %d)", name, passed, graded.size())
                    .isEqualTo(passed == graded.size());
            assertThat(marks.contains("does not discriminate")).as("whether %s is marked as not discriminating (r = %s)", name, r)
                    .isEqualTo(passed > 0 && passed < graded.size() && (r == null || r < 0.2));
            marked += marks.isEmpty() ? 0 : 1;
        }
        assertThat(marked).as("tests marked on the page: some, not all").isPositive().isLessThan(rows.size());
    }

    @Test
    @DisplayName("the renamed copy is listed as similar, its side-by-side page opens, and it keeps full marks; the stubs are not listed")
    void theRenamedCopyIsListedAndKeepsItsScore() throws IOException {
        Map<String, GradebookRow> rows = new LinkedHashMap<>();
        gradebook().forEach(row -> rows.put(row.student(), row));
        List<Map<String, String>> csv = csv(CLASS.out().resolve("similarity.csv"));
        WebDriver page = BROWSER.open(CLASS.out().resolve("gradebook.html"));
        List<String> listed = page.findElements(By.cssSelector("#similar-pairs tbody tr")).stream()
                .map(row -> row.findElements(By.tagName("td"))).map(cells -> cells.get(0).getText() + " + " + cells.get(1).getText()).toList();

        assertThat(listed).as("the pairs listed on the page, against similarity.csv")
                .containsExactlyElementsOf(csv.stream().map(line -> line.get("student_a") + " + " + line.get("student_b")).toList());
        assertThat(listed).as("the pairs listed as similar").contains("renamed-copy + solutions").noneMatch(pair -> pair.contains("stubs"));
        assertThat(rows.get("renamed-copy").score()).as("the renamed copy's score: similarity never changes a score")
                .isEqualTo(rows.get("renamed-copy").max()).isEqualTo(rows.get("solutions").score());
        assertThat(page.findElement(By.cssSelector("ul.skipped")).getText()).as("the students not compared, and why")
                .contains(GradedClass.UNFIT + ": not graded").contains(GradedClass.NOT_COMPILING + ": JPlag could not parse");

        page.findElement(By.xpath("//table[@id='similar-pairs']//tr[td[1]='renamed-copy' and td[2]='solutions']//a[text()='matched regions']")).click();
        assertThat(page.findElement(By.tagName("h1")).getText()).as("the heading of the pair's side-by-side page")
                .isEqualTo("renamed-copy and solutions");
        assertThat(page.findElements(By.cssSelector(".regions tbody tr"))).as("matched regions listed on the side-by-side page").hasSizeGreaterThan(10);
        assertThat(page.findElements(By.cssSelector(".side .line.m0"))).as("highlighted lines of the first region, on both sides").hasSizeGreaterThan(2);
        BROWSER.screenshot("similar-pair");
    }

    @Test
    @DisplayName("the pairs whose ANSWERS.md prose is copied are listed beside the code pairs, as similarity-answers.csv lists them")
    void copiedAnswersAreListedBesideTheCodePairs() throws IOException {
        List<String> csv = Csv.pairs(CLASS.out(), "similarity-answers.csv");
        WebDriver page = BROWSER.open(CLASS.out().resolve("gradebook.html"));
        List<String> listed = page.findElements(By.cssSelector("#similar-answers tbody tr")).stream()
                .map(row -> row.findElements(By.tagName("td"))).map(cells -> cells.get(0).getText() + " + " + cells.get(1).getText()).toList();

        assertThat(listed).as("the pairs of similar explanations on the page, against similarity-answers.csv").containsExactlyElementsOf(csv);
        assertThat(listed).as("the pairs of similar explanations: the catalog's entries keep the solutions' ANSWERS.md")
                .contains("renamed-copy + solutions").noneMatch(pair -> pair.contains("stubs"));
    }

    @Test
    @DisplayName("each matched region carries its table number on both sides of the side-by-side page, on the lines the table gives")
    void eachRegionIsNumberedOnBothSides() {
        WebDriver page = BROWSER.open(CLASS.out().resolve("gradebook.html"));
        page.findElement(By.xpath("//table[@id='similar-pairs']//tr[td[1]='renamed-copy' and td[2]='solutions']//a[text()='matched regions']")).click();
        List<WebElement> rows = page.findElements(By.cssSelector(".regions tbody tr"));

        assertThat(rows).as("matched regions of renamed-copy and solutions").hasSizeGreaterThan(8);
        for (int number = 1; number <= rows.size(); number++) {
            List<WebElement> cells = rows.get(number - 1).findElements(By.tagName("td"));
            assertThat(cells.get(0).getText()).as("the number of region row %d", number).isEqualTo(Integer.toString(number));
            for (int side = 0; side < 2; side++) {
                String where = cells.get(1 + side).getText();
                int start = Integer.parseInt(where.replaceAll(".*:(\\d+).*", "$1"));
                String css = ".side:nth-child(" + (side + 1) + ") .region-number[data-region='" + number + "']";
                List<WebElement> badges = page.findElements(By.cssSelector(css));
                assertThat(badges).as("number badges of region %d on side %d (%s)", number, side + 1, where).hasSize(1);
                WebElement line = badges.get(0).findElement(By.xpath("./parent::span"));
                assertThat(line.findElement(By.cssSelector(".ln")).getText()).as("the line region %d's number stands on, side %d", number, side + 1)
                        .isEqualTo(Integer.toString(start));
            }
        }
    }

    @Test
    @DisplayName("the explanations to read, question by question, add up to gradebook.csv's answers to read")
    void theExplanationsAddUp() throws IOException {
        int toRead = gradebook().stream().filter(row -> row.status() == GradeStatus.GRADED).mapToInt(GradebookRow::answersToRead).sum();
        WebDriver page = BROWSER.open(CLASS.out().resolve("gradebook.html"));
        List<WebElement> questions = page.findElements(By.cssSelector("#explanations h3"));

        assertThat(questions).as("questions with explanations on the page").hasSizeGreaterThan(5);
        assertThat(page.findElements(By.cssSelector("#explanations table.answers tbody tr"))).as("explanations on the page, against the"
                + " sum of gradebook.csv's answers_to_read").hasSize(toRead);
        assertThat(page.findElement(By.id("question-9")).getText()).as("question 9's heading").startsWith("Question 9:");
        assertThat(page.findElement(By.cssSelector("#explanations")).getText()).as("the explanations section").contains("Rubric:")
                .contains("Not answered: stubs");
    }

    @Test
    @DisplayName("a click on a heading sorts the students by it, a second click the other way round")
    void aHeadingSortsItsTable() {
        WebDriver page = BROWSER.open(CLASS.out().resolve("gradebook.html"));
        List<Integer> before = scores(page);
        List<Integer> ascending = before.stream().sorted().toList();
        assertThat(before).as("the students' scores before sorting, in gradebook order: not already sorted").isNotEqualTo(ascending);

        WebElement heading = page.findElement(By.xpath("//table[@id='student-table']//th[text()='Score']"));
        heading.click();
        assertThat(scores(page)).as("the scores after one click on Score").isEqualTo(ascending);
        heading.click();
        assertThat(scores(page)).as("the scores after a second click on Score").isEqualTo(before.stream().sorted(java.util.Comparator.reverseOrder()).toList());
    }

    @Test
    @DisplayName("axe-core finds no serious or critical accessibility violation on the class page, nor once a table is sorted")
    void axeFindsNoSeriousViolation() {
        WebDriver page = BROWSER.open(CLASS.out().resolve("gradebook.html"));
        assertThat(BROWSER.seriousViolations()).as("axe-core's serious and critical violations on gradebook.html").isEmpty();
        page.findElement(By.xpath("//table[@id='student-table']//th[text()='Score']")).click();
        assertThat(BROWSER.seriousViolations()).as("axe-core's serious and critical violations on gradebook.html sorted by score").isEmpty();
    }

    @Test
    @DisplayName("the page loads nothing from outside, fits 1280 px, and prints; a screenshot and the PDF are kept")
    void thePageIsSelfContainedAndPrints() throws IOException {
        WebDriver page = BROWSER.open(CLASS.out().resolve("gradebook.html"));

        assertThat(((Number) BROWSER.script("return performance.getEntriesByType('resource').length")).intValue())
                .as("resources the page loaded besides itself").isZero();
        assertThat(page.findElements(By.cssSelector("script[src], link[href], img[src]"))).as("elements that load a file").isEmpty();
        assertThat(((Number) BROWSER.script("return document.documentElement.scrollWidth")).intValue())
                .as("the page's width in a 1280 px window: no sideways scrolling").isLessThanOrEqualTo(Browser.WIDTH);
        Path shot = BROWSER.screenshot("gradebook");
        Path pdf = BROWSER.print("gradebook");

        assertThat(Files.size(shot)).as("size of the kept screenshot %s", shot).isGreaterThan(10_000);
        assertThat(Files.readString(pdf, java.nio.charset.StandardCharsets.ISO_8859_1)).as("the printed page %s", pdf).startsWith("%PDF")
                .containsPattern("/Type\\s*/Page\\b");
    }

    private static List<Integer> scores(WebDriver page) {
        return page.findElements(By.cssSelector("#student-table tbody tr")).stream()
                .map(row -> row.findElements(By.tagName("td")).get(1).getText()).filter(text -> !text.equals("–"))
                .map(text -> Integer.parseInt(text.substring(0, text.indexOf(' ')))).toList();
    }

    private static String figure(WebDriver page, String name) {
        return page.findElement(By.cssSelector("[data-figure='" + name + "']")).getText();
    }

    /** The Pearson correlation of the pairs' first and second values; null when either does not vary. */
    private static Double pearson(List<double[]> pairs) {
        double n = pairs.size();
        double mx = pairs.stream().mapToDouble(pair -> pair[0]).sum() / n;
        double my = pairs.stream().mapToDouble(pair -> pair[1]).sum() / n;
        double sxy = pairs.stream().mapToDouble(pair -> (pair[0] - mx) * (pair[1] - my)).sum();
        double sxx = pairs.stream().mapToDouble(pair -> (pair[0] - mx) * (pair[0] - mx)).sum();
        double syy = pairs.stream().mapToDouble(pair -> (pair[1] - my) * (pair[1] - my)).sum();
        return sxx == 0 || syy == 0 ? null : sxy / Math.sqrt(sxx * syy);
    }

    /**
     * One score of a gradebook row, with the points it is out of.
     *
     * @param name  the figure's name on the page
     * @param score the row's points
     * @param max   the points available
     */
    private record Part(String name, Function<GradebookRow, Integer> score, Function<GradebookRow, Integer> max) {
    }

    private static List<GradebookRow> gradebook() throws IOException {
        return GradebookRow.read(CLASS.out().resolve("gradebook.csv"));
    }

    private static List<Map<String, String>> csv(Path file) throws IOException {
        return Csv.rows(file);
    }
}
