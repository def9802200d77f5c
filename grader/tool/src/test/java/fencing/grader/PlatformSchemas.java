package fencing.grader;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The JSON Schemas of the platforms' result files, written from each platform's documented contract (in
 * {@code src/test/resources/platform-schemas/}, each saying where its constraints come from), and a check of a file
 * against one of them.
 */
enum PlatformSchemas {

    /** Gradescope's {@code results.json}. */
    GRADESCOPE("gradescope-results.schema.json"),
    /** Classroom 50's {@code result.json}, as the autograder writes it (before the runner stamps its own fields). */
    CLASSROOM50("classroom50-result-v1.schema.json"),
    /** PrairieLearn's {@code /grade/results/results.json}. */
    PRAIRIELEARN("prairielearn-results.schema.json");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final JsonSchema schema;

    PlatformSchemas(String file) {
        try (InputStream in = PlatformSchemas.class.getResourceAsStream("/platform-schemas/" + file)) {
            if (in == null) {
                throw new IllegalStateException("platform-schemas/" + file + " is missing from the test resources");
            }
            schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Returns what is wrong with the JSON in {@code file} under this schema, each saying where; empty when it is valid. */
    List<String> problems(Path file) throws IOException {
        JsonNode document = JSON.readTree(Files.readString(file));
        return schema.validate(document).stream().map(ValidationMessage::getMessage).sorted().toList();
    }
}
