package fencing.support.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code evidence.json} reads in this schema and in schema 2, the one students' studies already submitted are written in, and
 * nothing else reads.
 */
class EvidenceTests {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The solutions' studies, written by the lab in schema 2, as a student's submission holds them. */
    private static final Path STUDIES = Path.of(System.getProperty("basedir", "."), "..", "solutions", "study").normalize();

    @TempDir
    Path dir;

    @Test
    @DisplayName("Every case's evidence of schema 2 reads into this schema, and writing it in this schema reads back the same study")
    void schemaTwoReadsIntoThisSchemaAndThisSchemaReadsBack() throws IOException {
        List<Path> files = studies();
        assertThat(files).as("the solutions' evidence.json files, one per case, under %s", STUDIES).hasSizeGreaterThanOrEqualTo(10);
        for (Path file : files) {
            assertThat(JSON.readTree(file.toFile()).path("schema").asInt()).as("the schema %s names", file).isEqualTo(2);
            Evidence.Study study = Evidence.read(file);
            assertThat(study.schema()).as("the schema of %s as read", file).isEqualTo(Evidence.SCHEMA);

            Path again = dir.resolve(file.getParent().getFileName() + ".json");
            JSON.writeValue(again.toFile(), study);
            assertThat(Evidence.read(again)).as("%s written in schema %d and read back", file, Evidence.SCHEMA).isEqualTo(study);
        }
    }

    @Test
    @DisplayName("A schema-2 repeat's and event's fields land in the groups of this schema, each with its value")
    void schemaTwoFieldsLandInTheirGroups() throws IOException {
        Path file = STUDIES.resolve("late-write").resolve(Evidence.FILE);
        JsonNode raw = JSON.readTree(file.toFile());
        JsonNode rawRepeat = raw.path("repeats").path(0);
        JsonNode rawEvent = rawRepeat.path("events").path(0);

        Evidence.Study study = Evidence.read(file);
        Evidence.Repeat repeat = study.repeats().get(0);
        Evidence.Event event = repeat.trace().events().get(0);

        assertThat(study.setup().ttlSeconds()).as("the study's TTL").isEqualTo(raw.path("ttlSeconds").asLong());
        assertThat(study.setup().sinks()).as("the study's sinks").containsOnlyKeys(iterable(raw.path("sinks").fieldNames()));
        assertThat(repeat.judgement().pass()).as("the repeat's pass").isEqualTo(rawRepeat.path("pass").asBoolean());
        assertThat(repeat.judgement().verdict()).as("the repeat's verdict").isEqualTo(rawRepeat.path("verdict").asText());
        assertThat(repeat.lock().key()).as("the repeat's lock key").isEqualTo(rawRepeat.path("lockKey").asText());
        assertThat(repeat.lock().a().token()).as("A's token").isEqualTo(rawRepeat.path("a").path("token").asLong());
        assertThat(repeat.lock().expiry().stopAtMicros()).as("A's freeze").isEqualTo(rawRepeat.path("expiry").path("stopAtMicros").asLong());
        assertThat(repeat.trace().startedAtMicros()).as("the repeat's start").isEqualTo(rawRepeat.path("startedAtMicros").asLong());
        assertThat(repeat.trace().exchanges()).as("the repeat's exchanges").hasSize(rawRepeat.path("exchanges").size());
        assertThat(event.kind().name()).as("the first event's kind").isEqualTo(rawEvent.path("kind").asText());
        assertThat(event.about().token()).as("the first event's token").isEqualTo(rawEvent.path("token").asLong());
        assertThat(event.about().mode()).as("the first event's mode, absent in schema 2 as null").isNull();
    }

    @Test
    @DisplayName("Evidence of another schema, or of none, is refused with the schema it names")
    void anotherSchemaIsRefused() throws IOException {
        Path one = Files.writeString(dir.resolve("one.json"), "{\"schema\": 1, \"repeats\": []}");
        Path none = Files.writeString(dir.resolve("none.json"), "{\"repeats\": []}");

        assertThatThrownBy(() -> Evidence.read(one)).as("evidence that says schema 1").isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not evidence of schema " + Evidence.SCHEMA + " or 2").hasMessageContaining("it says schema 1");
        assertThatThrownBy(() -> Evidence.read(none)).as("evidence that names no schema").isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("it says no schema");
    }

    @Test
    @DisplayName("A file that names this schema but is laid out as schema 2 is refused, not read half-empty")
    void schemaTwoLayoutUnderThisSchemaIsRefused() throws IOException {
        String text = Files.readString(STUDIES.resolve("late-write").resolve(Evidence.FILE))
                .replaceFirst("\"schema\"\\s*:\\s*2", "\"schema\" : " + Evidence.SCHEMA);
        Path mislabelled = Files.writeString(dir.resolve("mislabelled.json"), text);

        assertThatThrownBy(() -> Evidence.read(mislabelled)).as("schema-2 fields under schema %d", Evidence.SCHEMA)
                .isInstanceOf(IOException.class).hasMessageContaining("Unrecognized field");
    }

    private static List<Path> studies() throws IOException {
        try (Stream<Path> cases = Files.list(STUDIES)) {
            return cases.map(dir -> dir.resolve(Evidence.FILE)).filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static <T> Iterable<T> iterable(java.util.Iterator<T> iterator) {
        return () -> iterator;
    }
}
