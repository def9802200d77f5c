package fencing.grader;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * The test results Artemis's build takes from a folder of reports, read by the rules of its {@code TestResultXmlParser},
 * written down here from its behaviour rather than from the kit's own writer: every {@code *.xml} file; characters XML
 * cannot hold removed first; a {@code <testsuites>} root read as a {@code <testsuite>}, nested suites read in turn; a
 * test known by its {@code name} attribute alone; {@code <skipped>} ignored; {@code <failure>} or else {@code <error>}
 * failing the test, its message the {@code message} attribute if there is one, else the element's text; and each message
 * cut at {@value #MESSAGE_LIMIT} characters, as Artemis stores feedback.
 */
final class ArtemisResults {

    /** The characters of a message Artemis keeps. */
    static final int MESSAGE_LIMIT = 20_000;

    private static final String INVALID_XML = "[^\t\r\n\u0020-\uD7FF\uE000-\uFFFD\uD800\uDC00-\uDBFF\uDFFF]";

    private ArtemisResults() {
    }

    /** One test's result as Artemis records it. */
    record Result(boolean passed, String message) {
    }

    /** Returns every test's result in the {@code *.xml} files under {@code folder}, by name, in the files' order. */
    static Map<String, Result> read(Path folder) throws IOException {
        Map<String, Result> results = new LinkedHashMap<>();
        for (Path file : files(folder)) {
            String text = Files.readString(file, StandardCharsets.UTF_8).replaceAll(INVALID_XML, "");
            try {
                DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
                factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
                factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
                suite(factory.newDocumentBuilder().parse(new InputSource(new StringReader(text))).getDocumentElement(), results);
            } catch (ParserConfigurationException | SAXException e) {
                throw new IOException(file + " is not XML Artemis reads", e);
            }
        }
        return results;
    }

    /** Returns the {@code *.xml} files under {@code folder}. */
    static List<Path> files(Path folder) throws IOException {
        try (Stream<Path> found = Files.walk(folder)) {
            return found.filter(file -> file.getFileName().toString().endsWith(".xml")).sorted().toList();
        }
    }

    private static void suite(Element suite, Map<String, Result> results) {
        for (Node child = suite.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (!(child instanceof Element element)) {
                continue;
            }
            if ("testcase".equals(element.getTagName())) {
                testCase(element, results);
            } else if ("testsuite".equals(element.getTagName())) {
                suite(element, results);
            }
        }
    }

    private static void testCase(Element test, Map<String, Result> results) {
        if (first(test, "skipped") != null) {
            return;
        }
        Element failure = first(test, "failure");
        if (failure == null) {
            failure = first(test, "error");
        }
        if (failure == null) {
            results.put(test.getAttribute("name"), new Result(true, ""));
            return;
        }
        String message = failure.hasAttribute("message") ? failure.getAttribute("message") : failure.getTextContent();
        results.put(test.getAttribute("name"), new Result(false,
                message.length() > MESSAGE_LIMIT ? message.substring(0, MESSAGE_LIMIT) : message));
    }

    private static Element first(Element parent, String tag) {
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element element && tag.equals(element.getTagName())) {
                return element;
            }
        }
        return null;
    }
}
