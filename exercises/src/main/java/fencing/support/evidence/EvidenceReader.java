package fencing.support.evidence;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import fencing.support.evidence.Evidence.About;
import fencing.support.evidence.Evidence.Call;
import fencing.support.evidence.Evidence.Chaos;
import fencing.support.evidence.Evidence.Clocks;
import fencing.support.evidence.Evidence.Expiry;
import fencing.support.evidence.Evidence.Figures;
import fencing.support.evidence.Evidence.Holder;
import fencing.support.evidence.Evidence.Lane;
import fencing.support.evidence.Evidence.LedgerOutcome;
import fencing.support.evidence.Evidence.ModeOutcome;
import fencing.support.evidence.Evidence.Summary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code evidence.json} strictly, in the schema it names: {@link Evidence#SCHEMA}, or schema 2, which students' studies
 * already submitted are written in and which differs only in how a study, a repeat and an event group their fields.
 */
final class EvidenceReader {

    private static final ObjectMapper STRICT = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    /** Reads only the schema number, whatever else the file holds, to choose the records for the rest. */
    private static final ObjectReader VERSION = STRICT.readerFor(Version.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private EvidenceReader() {
    }

    static Evidence.Study read(Path file) throws IOException {
        byte[] json = Files.readAllBytes(file);
        Version version = VERSION.readValue(json);
        Integer schema = version == null ? null : version.schema();
        if (schema != null && schema == Evidence.SCHEMA) {
            return STRICT.readValue(json, Evidence.Study.class);
        }
        if (schema != null && schema == 2) {
            return STRICT.readValue(json, Study2.class).current();
        }
        throw new IllegalArgumentException(file.getFileName() + " is not evidence of schema " + Evidence.SCHEMA + " or 2 (it says "
                + (version == null ? "nothing" : schema == null ? "no schema" : "schema " + schema) + "): run the study again with this kit's ./kit study");
    }

    private record Version(Integer schema) {
    }

    private record Study2(int schema, String tool, String caseName, String caseTitle, String contract, String startedAt, String endedAt,
                          long ttlSeconds, int repeatsAsked, String etcd, String javaVersion, String classPathNote,
                          Map<String, String> sinks, List<Repeat2> repeats, Summary summary, Chaos chaos, String error) {

        Evidence.Study current() {
            return new Evidence.Study(Evidence.SCHEMA, caseName, caseTitle,
                    new Evidence.Setup(tool, contract, etcd, javaVersion, classPathNote, ttlSeconds, repeatsAsked, sinks), startedAt, endedAt,
                    repeats.stream().map(Repeat2::current).toList(), summary, chaos, error);
        }
    }

    private record Repeat2(int repeat, String caseName, boolean pass, List<String> differences, List<String> notes, String verdict,
                           String explanation, String contractNote, String lockKey, long ttlSeconds, Holder a, Holder b, Expiry expiry,
                           long startedAtMicros, long endedAtMicros, Figures figures, Map<String, ModeOutcome> modes,
                           Map<String, LedgerOutcome> ledgers, List<Event2> events, List<Call> exchanges, Map<String, String> files,
                           Clocks clocks) {

        Evidence.Repeat current() {
            return new Evidence.Repeat(repeat, caseName, new Evidence.Judgement(pass, verdict, explanation, contractNote, differences, notes),
                    new Evidence.Lock(lockKey, ttlSeconds, a, b, expiry, clocks), figures, modes, ledgers,
                    new Evidence.Trace(startedAtMicros, endedAtMicros, events.stream().map(Event2::current).toList(), exchanges, files));
        }
    }

    private record Event2(Lane lane, EventKind kind, long atMicros, double tMillis, String label, String detail, Long token, String mode,
                          String verdict, Long total, String value, Long mark, String from) {

        Evidence.Event current() {
            return new Evidence.Event(lane, kind, atMicros, tMillis, label, detail, new About(token, mode, verdict, total, value, mark, from));
        }
    }
}
