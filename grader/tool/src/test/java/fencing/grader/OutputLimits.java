package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.grader.report.ReportText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Checks a platform's result file against the one cut every such file makes: no test's output longer than
 * {@link ReportText#TEST_OUTPUT_LIMIT}, no overall output longer than {@link ReportText#OUTPUT_LIMIT}. Artemis's reports are
 * a folder of XML files, read as Artemis reads them ({@link ArtemisResults}).
 */
final class OutputLimits {

    /** The fields a test's text is in, across the platforms' formats. */
    private static final List<String> TEXTS = List.of("output", "message");

    private static final ObjectMapper JSON = new ObjectMapper();

    private OutputLimits() {
    }

    /** Checks {@code file} (or Artemis's folder) and returns how many of its tests' texts say they were cut. */
    static int assertWithinLimits(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            int cut = 0;
            for (var result : ArtemisResults.read(file).entrySet()) {
                assertThat(result.getValue().message().length()).as("%s: the length of the message of %s", file, result.getKey())
                        .isLessThanOrEqualTo(ReportText.TEST_OUTPUT_LIMIT);
                cut += result.getValue().message().contains(ReportText.CUT) ? 1 : 0;
            }
            return cut;
        }
        // Read raw: one check for every platform's file, by the fields their formats share.
        JsonNode root = JSON.readTree(file.toFile());
        for (String field : TEXTS) {
            assertThat(root.path(field).asText().length()).as("%s: the length of its top-level %s", file, field)
                    .isLessThanOrEqualTo(ReportText.OUTPUT_LIMIT);
        }
        int cut = 0;
        for (JsonNode test : root.path("tests")) {
            for (String field : TEXTS) {
                String text = test.path(field).asText();
                assertThat(text.length()).as("%s: the length of the %s of %s", file, field, test.path("name"))
                        .isLessThanOrEqualTo(ReportText.TEST_OUTPUT_LIMIT);
                cut += text.contains(ReportText.CUT) ? 1 : 0;
            }
        }
        return cut;
    }
}
