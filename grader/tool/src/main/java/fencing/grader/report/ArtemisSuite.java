package fencing.grader.report;

import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;

/**
 * One graded test class as Artemis's build reads it: a surefire-style {@code TEST-<class>.xml} under
 * {@code target/surefire-reports}, written and read here only.
 *
 * <p>Artemis knows a test by its {@code testcase}'s {@code name} alone, across every file of a build, and sets its
 * points and visibility per name; so each name is {@link #testName the class's simple name and the method's}, stable
 * across runs and free of the commas and parentheses of a task marker. A failure's text is the kit's student-facing
 * message, cut as every platform's file cuts it ({@link ReportText#testOutput}), well within Artemis's own cut at
 * {@value #ARTEMIS_MESSAGE_LIMIT} characters; it is written as the element's text, without a {@code message}
 * attribute, which Artemis would read first and in which an XML parser folds the lines into one.
 *
 * @param name  the test class's name
 * @param cases its graded tests, in the grade's order
 */
public record ArtemisSuite(String name, List<Case> cases) {

    /** Where Artemis's build collects the reports, relative to the build's working folder. */
    public static final String FOLDER = "target/surefire-reports";
    /** The characters of a message Artemis keeps; it cuts the rest. */
    public static final int ARTEMIS_MESSAGE_LIMIT = 20_000;

    private static final XMLOutputFactory WRITER = XMLOutputFactory.newFactory();
    private static final XMLInputFactory READER = XMLInputFactory.newFactory();

    static {
        // A report is read as data: no DTD, no external entity.
        READER.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        READER.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    }

    public ArtemisSuite {
        cases = List.copyOf(cases);
    }

    /**
     * One test case.
     *
     * @param name    its name in Artemis ({@link #testName})
     * @param passed  whether it passed
     * @param message what the student reads when it failed; empty when it passed
     * @param seconds how long it ran
     */
    public record Case(String name, boolean passed, String message, double seconds) {
    }

    /** Returns the name Artemis knows {@code test} by: {@code QuorumGradedTests.quorumIsAMajority}. */
    public static String testName(TestCase test) {
        return test.className().substring(test.className().lastIndexOf('.') + 1) + "." + test.methodName();
    }

    /** Returns one suite per graded test class of {@code grade}, which has a score, by class name. */
    public static List<ArtemisSuite> of(Grade grade) {
        Map<String, List<Case>> byClass = new TreeMap<>();
        for (TestResult result : grade.results()) {
            String message = result.passed() ? "" : result.message().isBlank() ? "failed" : ReportText.testOutput(result.message());
            byClass.computeIfAbsent(result.test().className(), name -> new ArrayList<>())
                    .add(new Case(testName(result.test()), result.passed(), message, Math.max(0, result.millis()) / 1000.0));
        }
        return byClass.entrySet().stream().map(entry -> new ArtemisSuite(entry.getKey(), entry.getValue())).toList();
    }

    /** Returns the file's name: {@code TEST-<class>.xml}, as Surefire names it. */
    public String fileName() {
        return "TEST-" + name + ".xml";
    }

    /** Writes the suite into {@code folder} as {@link #fileName()}, and returns the file. */
    public Path write(Path folder) throws IOException {
        Path file = folder.resolve(fileName());
        try (OutputStream out = Files.newOutputStream(file)) {
            XMLStreamWriter xml = WRITER.createXMLStreamWriter(out, "UTF-8");
            try {
                xml.writeStartDocument("UTF-8", "1.0");
                xml.writeCharacters("\n");
                xml.writeStartElement("testsuite");
                xml.writeAttribute("name", name);
                xml.writeAttribute("tests", Integer.toString(cases.size()));
                xml.writeAttribute("failures", Long.toString(cases.stream().filter(test -> !test.passed()).count()));
                xml.writeAttribute("errors", "0");
                xml.writeAttribute("skipped", "0");
                for (Case test : cases) {
                    xml.writeCharacters("\n  ");
                    xml.writeStartElement("testcase");
                    xml.writeAttribute("name", test.name());
                    xml.writeAttribute("classname", name);
                    xml.writeAttribute("time", String.format(Locale.ROOT, "%.3f", test.seconds()));
                    if (!test.passed()) {
                        xml.writeStartElement("failure");
                        xml.writeCharacters(legal(test.message()));
                        xml.writeEndElement();
                    }
                    xml.writeEndElement();
                }
                xml.writeCharacters("\n");
                xml.writeEndElement();
                xml.writeCharacters("\n");
                xml.writeEndDocument();
            } finally {
                xml.close();
            }
        } catch (XMLStreamException e) {
            throw new IOException("could not write " + file, e);
        }
        return file;
    }

    /** Reads a suite this class wrote. */
    public static ArtemisSuite read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            XMLStreamReader xml = READER.createXMLStreamReader(in);
            String suite = null;
            List<Case> cases = new ArrayList<>();
            String test = null;
            double seconds = 0;
            StringBuilder failure = null;
            boolean failed = false;
            while (xml.hasNext()) {
                int event = xml.next();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    switch (xml.getLocalName()) {
                        case "testsuite" -> suite = xml.getAttributeValue(null, "name");
                        case "testcase" -> {
                            test = xml.getAttributeValue(null, "name");
                            seconds = Double.parseDouble(xml.getAttributeValue(null, "time"));
                            failed = false;
                        }
                        case "failure" -> {
                            failed = true;
                            failure = new StringBuilder();
                        }
                        default -> { }
                    }
                } else if (event == XMLStreamConstants.CHARACTERS && failure != null) {
                    failure.append(xml.getText());
                } else if (event == XMLStreamConstants.END_ELEMENT && "testcase".equals(xml.getLocalName())) {
                    cases.add(new Case(test, !failed, failed ? failure.toString() : "", seconds));
                    failure = null;
                }
            }
            if (suite == null) {
                throw new IOException(file + " has no <testsuite>");
            }
            return new ArtemisSuite(suite, cases);
        } catch (XMLStreamException e) {
            throw new IOException("could not read " + file, e);
        }
    }

    /**
     * Returns {@code text} without the characters XML 1.0 cannot hold: Artemis removes them before parsing, so a
     * message read there reads the same as here.
     */
    private static String legal(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().filter(c -> c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c <= 0xD7FF)
                || (c >= 0xE000 && c <= 0xFFFD) || c >= 0x10000).forEach(out::appendCodePoint);
        return out.toString();
    }
}
