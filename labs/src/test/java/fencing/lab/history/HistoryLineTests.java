package fencing.lab.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencing.lab.history.HistoryLine.Write.Verdict;
import fencing.lab.sink.Mode;
import fencing.support.evidence.SinkReply;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The chaos run's history lines: each kind is written with the field names of {@code labs/README.md} and reads back as itself. */
class HistoryLineTests {

    private static final HistoryLine.Header HEADER =
            new HistoryLine.Header(1, "chaos", 11, 5, 2000, 3, List.of("w1", "w2"), List.of(Mode.PLAIN, Mode.CURRENT_OWNER));
    private static final HistoryLine.Acquired ACQUIRED = new HistoryLine.Acquired("w1", 7, "0x694d", 1_000);
    private static final HistoryLine.Write ACCEPTED = new HistoryLine.Write("w1", 7, "0x694d", Mode.PLAIN, "w1-7-0-0", 1_100, 1_200, Verdict.ACCEPTED,
            new SinkReply.ModeAfter("w1-7-0-0", 0), null);
    private static final HistoryLine.Write REJECTED = new HistoryLine.Write("w1", 7, "0x694d", Mode.CURRENT_OWNER, "w1-7-0-0", 1_110, 1_210,
            Verdict.REJECTED, new SinkReply.ModeAfter(null, 0), null);
    private static final HistoryLine.Write NO_VERDICT = new HistoryLine.Write("w1", 7, "0x694d", Mode.PLAIN, "w1-7-0-1", 1_300, 6_300, Verdict.ERROR,
            null, "no response (timed out)");
    private static final HistoryLine.Fault FREEZE = new HistoryLine.Fault(HistoryLine.Fault.Action.FREEZE, "w1", 1_250);
    private static final HistoryLine.Fault CUT = new HistoryLine.Fault(HistoryLine.Fault.Action.CUT, "w2", 1_260);
    private static final HistoryLine.Fault HEAL = new HistoryLine.Fault(HistoryLine.Fault.Action.HEAL, "w2", 6_260);
    private static final HistoryLine.Released RELEASED = new HistoryLine.Released("w1", 7, "0x694d", true, null, 6_400);
    private static final HistoryLine.Released RELEASE_CUT = new HistoryLine.Released("w1", 7, "0x694d", null, "frozen mid-call", 6_500);
    private static final HistoryLine.AcquireFailed ACQUIRE_FAILED = new HistoryLine.AcquireFailed("w2", "timed out", 6_600);

    static Stream<Arguments> everyKind() {
        return Stream.of(
                Arguments.of(HEADER, "{\"type\":\"history\",\"format\":1,\"case\":\"chaos\",\"seed\":11,\"durationSeconds\":5,\"ttlMillis\":2000,"
                        + "\"valuesPerHold\":3,\"writerNames\":[\"w1\",\"w2\"],\"modes\":[\"plain\",\"current-owner\"]}"),
                Arguments.of(ACQUIRED, "{\"type\":\"acquired\",\"writer\":\"w1\",\"token\":7,\"lease\":\"0x694d\",\"atMicros\":1000}"),
                Arguments.of(ACCEPTED, "{\"type\":\"write\",\"writer\":\"w1\",\"token\":7,\"lease\":\"0x694d\",\"mode\":\"plain\",\"value\":\"w1-7-0-0\","
                        + "\"sentAtMicros\":1100,\"receivedAtMicros\":1200,\"verdict\":\"accepted\",\"after\":{\"value\":\"w1-7-0-0\",\"highWaterMark\":0}}"),
                Arguments.of(REJECTED, "{\"type\":\"write\",\"writer\":\"w1\",\"token\":7,\"lease\":\"0x694d\",\"mode\":\"current-owner\","
                        + "\"value\":\"w1-7-0-0\",\"sentAtMicros\":1110,\"receivedAtMicros\":1210,\"verdict\":\"rejected\","
                        + "\"after\":{\"value\":null,\"highWaterMark\":0}}"),
                Arguments.of(NO_VERDICT, "{\"type\":\"write\",\"writer\":\"w1\",\"token\":7,\"lease\":\"0x694d\",\"mode\":\"plain\",\"value\":\"w1-7-0-1\","
                        + "\"sentAtMicros\":1300,\"receivedAtMicros\":6300,\"verdict\":\"error\",\"error\":\"no response (timed out)\"}"),
                Arguments.of(FREEZE, "{\"type\":\"nemesis\",\"action\":\"freeze\",\"writer\":\"w1\",\"atMicros\":1250}"),
                Arguments.of(CUT, "{\"type\":\"nemesis\",\"action\":\"cut\",\"writer\":\"w2\",\"atMicros\":1260}"),
                Arguments.of(HEAL, "{\"type\":\"nemesis\",\"action\":\"heal\",\"writer\":\"w2\",\"atMicros\":6260}"),
                Arguments.of(RELEASED, "{\"type\":\"released\",\"writer\":\"w1\",\"token\":7,\"lease\":\"0x694d\",\"deleted\":true,\"atMicros\":6400}"),
                Arguments.of(RELEASE_CUT,
                        "{\"type\":\"released\",\"writer\":\"w1\",\"token\":7,\"lease\":\"0x694d\",\"error\":\"frozen mid-call\",\"atMicros\":6500}"),
                Arguments.of(ACQUIRE_FAILED, "{\"type\":\"acquire-failed\",\"writer\":\"w2\",\"error\":\"timed out\",\"atMicros\":6600}"),
                Arguments.of(new HistoryLine.WriterEnd("w1", 3, 1), "{\"type\":\"writer-end\",\"writer\":\"w1\",\"writes\":3,\"rounds\":1}"),
                Arguments.of(new HistoryLine.End(3), "{\"type\":\"end\",\"writes\":3}"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("everyKind")
    @DisplayName("each kind of line is written with its type first and the documented fields, and reads back as itself")
    void roundTripsWithTheDocumentedFieldNames(HistoryLine line, String json) {
        assertThat(line.json()).as("the JSON of %s", line).isEqualTo(json);
        assertThat(HistoryLine.parse(json)).as("read back").isEqualTo(line);
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("everyKind")
    @DisplayName("a line without its type is not a history line")
    void aLineWithoutItsTypeIsRefused(HistoryLine line, String json) {
        String untyped = json.replaceFirst("\"type\":\"[a-z-]+\",", "");

        assertThatThrownBy(() -> HistoryLine.parse(untyped)).as("%s without its type", untyped).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("not a history line");
    }

    @Test
    @DisplayName("a line of an unknown type, or with a field its kind does not have, is not a history line")
    void unknownTypesAndFieldsAreRefused() {
        assertThatThrownBy(() -> HistoryLine.parse("{\"type\":\"resumed\",\"writer\":\"w1\",\"atMicros\":1}")).isInstanceOf(UncheckedIOException.class);
        assertThatThrownBy(() -> HistoryLine.parse("{\"type\":\"end\",\"writes\":3,\"rounds\":1}")).isInstanceOf(UncheckedIOException.class);
    }

    @Test
    @DisplayName("a write is ordered by when it was sent, every other timed line by its atMicros")
    void timedLinesAreOrderedAsTheHistoryIs() {
        List<HistoryLine.Timed> others = List.of(RELEASED, ACQUIRE_FAILED, FREEZE, ACQUIRED);

        assertThat(NO_VERDICT.timeMicros()).as("a write is sent, then answered").isEqualTo(NO_VERDICT.sentAtMicros());
        assertThat(others.stream().map(HistoryLine.Timed::timeMicros)).containsExactly(6_400L, 6_600L, 1_250L, 1_000L);
    }

    @Test
    @DisplayName("a history made of these lines is one the checker reads whole")
    void aHistoryOfTheseLinesIsValid(@TempDir Path dir) {
        List<HistoryLine> lines = List.of(HEADER, ACQUIRED, ACCEPTED, REJECTED, FREEZE, CUT, NO_VERDICT, HEAL, RELEASED, RELEASE_CUT, ACQUIRE_FAILED,
                new HistoryLine.WriterEnd("w1", 3, 1), new HistoryLine.WriterEnd("w2", 0, 0), new HistoryLine.End(3));
        History history = History.read(HandMadeHistory.save(dir, "typed.jsonl", lines.stream().map(HistoryLine::json).toList()));

        assertThat(history.problems()).as("every kind of line, as the run writes it").isEmpty();
        assertThat(history.writes()).extracting(History.Write::verdict).containsExactly(Verdict.ACCEPTED, Verdict.REJECTED, Verdict.ERROR);
        assertThat(history.acquisitions()).as("the acquisition, as the run wrote it").containsExactly(ACQUIRED);
        assertThat(history.faults()).as("the freeze, the cut and the heal, in file order").containsExactly(FREEZE, CUT, HEAL);
        assertThat(history.writerNames()).containsExactly("w1", "w2");
    }
}
