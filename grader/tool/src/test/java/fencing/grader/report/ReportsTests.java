package fencing.grader.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/** The JUnit XML reports a grade is written as, read back with a real XML parser. */
class ReportsTests {

    private static final String NASTY = "expected <3> & \"four\" or 'five' ]]> then\u0007 a bell";
    private static final String MESSAGE = NASTY + "\nsecond line: a < b && c > d";

    @TempDir
    Path dir;

    @Test
    @DisplayName("each test class gets one JUnit XML file that parses, with its counts, cases, times and failures")
    void junitXmlIsOneParsableFilePerClass() throws Exception {
        Grade grade = new Grade("submission", true, "", List.of(
                result("fencing.basics.ResourceGradedTests", "a <stale> token & \"quotes\" are refused", true, "", 1234),
                result("fencing.basics.ResourceGradedTests", "the newest token wins", false, MESSAGE, 20),
                result("fencing.sink.SinkFencingTests", "the sink checks the mark", false, "no mark", -1)),
                List.of(), "", 2.0);

        Reports.write(grade, dir, GradingPolicy.load());

        try (Stream<Path> files = Files.list(dir.resolve("junit"))) {
            assertThat(files.map(file -> file.getFileName().toString()))
                    .as("one report per test class")
                    .containsExactlyInAnyOrder("TEST-fencing.basics.ResourceGradedTests.xml", "TEST-fencing.sink.SinkFencingTests.xml");
        }
        Element suite = parse(dir.resolve("junit/TEST-fencing.basics.ResourceGradedTests.xml"));
        assertThat(suite.getTagName()).as("the root element").isEqualTo("testsuite");
        assertThat(suite.getAttribute("name")).as("the suite's name").isEqualTo("fencing.basics.ResourceGradedTests");
        assertThat(suite.getAttribute("tests")).as("tests in the suite").isEqualTo("2");
        assertThat(suite.getAttribute("failures")).as("failures in the suite").isEqualTo("1");
        assertThat(suite.getAttribute("errors")).as("errors in the suite").isEqualTo("0");
        assertThat(suite.getAttribute("skipped")).as("skipped tests in the suite").isEqualTo("0");
        assertThat(suite.getAttribute("time")).as("the suite's time in seconds").isEqualTo("1.254");

        NodeList cases = suite.getElementsByTagName("testcase");
        assertThat(cases.getLength()).as("test cases in the suite").isEqualTo(2);
        Element passed = (Element) cases.item(0);
        assertThat(passed.getAttribute("name")).as("a display name with markup characters")
                .isEqualTo("a <stale> token & \"quotes\" are refused");
        assertThat(passed.getAttribute("classname")).as("the case's class").isEqualTo("fencing.basics.ResourceGradedTests");
        assertThat(passed.getAttribute("time")).as("the case's time in seconds").isEqualTo("1.234");
        assertThat(passed.getElementsByTagName("failure").getLength()).as("failures of a passed case").isZero();

        Element failed = (Element) cases.item(1);
        assertThat(failed.getAttribute("name")).as("the failed case's name").isEqualTo("the newest token wins");
        NodeList failures = failed.getElementsByTagName("failure");
        assertThat(failures.getLength()).as("failures of a failed case").isEqualTo(1);
        Element failure = (Element) failures.item(0);
        String readable = "expected <3> & \"four\" or 'five' ]]> then&#7; a bell";
        assertThat(failure.getAttribute("message"))
                .as("the failure's message: the first line, markup intact, the control character written out")
                .isEqualTo(readable);
        assertThat(failure.getTextContent()).as("the failure's whole text")
                .isEqualTo(readable + "\nsecond line: a < b && c > d");

        Element other = parse(dir.resolve("junit/TEST-fencing.sink.SinkFencingTests.xml"));
        assertThat(other.getAttribute("tests")).as("tests in the other suite").isEqualTo("1");
        assertThat(((Element) other.getElementsByTagName("testcase").item(0)).getAttribute("time"))
                .as("a test that never finished counts no time").isEqualTo("0.000");
    }

    @Test
    @DisplayName("the XML parser used here rejects a raw control character, so the reports' escaping is what makes them parse")
    void parserRejectsRawControlCharacters() throws IOException {
        Path broken = Files.writeString(dir.resolve("broken.xml"),
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"a\u0007b\"/>\n");

        assertThatThrownBy(() -> parse(broken)).as("parsing XML with a raw BEL character").isInstanceOf(SAXParseException.class);
    }

    @Test
    @DisplayName("a JUnit XML failure of a 300,000-character one-line message has a message of at most the first line's"
            + " limit and a text of at most a test's output limit, which says it was cut")
    void junitXmlFailuresAreCapped() throws Exception {
        String flood = "rule: a majority is more than half; observed: " + "a majority, ".repeat(25_000);
        Grade grade = new Grade("submission", true, "", List.of(result("fencing.basics.QuorumGradedTests", "floods", false, flood, 5)),
                List.of(), "", 1.0);

        Reports.write(grade, dir, GradingPolicy.load());

        Element failure = (Element) parse(dir.resolve("junit/TEST-fencing.basics.QuorumGradedTests.xml"))
                .getElementsByTagName("failure").item(0);
        assertThat(failure.getAttribute("message")).as("the message attribute of a failure whose one line is 300,046 characters")
                .hasSizeLessThanOrEqualTo(ReportText.FIRST_LINE_LIMIT).startsWith("rule: a majority is more than half; observed:");
        assertThat(failure.getTextContent()).as("the text of a failure whose message is 300,046 characters")
                .hasSizeLessThanOrEqualTo(ReportText.TEST_OUTPUT_LIMIT).contains(ReportText.CUT);
    }

    private static TestResult result(String className, String displayName, boolean passed, String message, long millis) {
        TestCase test = new TestCase("[engine:junit-jupiter]/[class:" + className + "]/[method:m()]", className, "m",
                displayName, 1, List.of("tag"));
        return new TestResult(test, passed, message, millis);
    }

    private static Element parse(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        DocumentBuilder builder = factory.newDocumentBuilder();
        // Report errors by throwing only: the default handler also prints them.
        builder.setErrorHandler(new DefaultHandler());
        Document document = builder.parse(file.toFile());
        return document.getDocumentElement();
    }
}
