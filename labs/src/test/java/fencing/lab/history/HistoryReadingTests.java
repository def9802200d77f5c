package fencing.lab.history;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.lab.sink.Mode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reading a history file: histories the run wrote before read as they did, and a bad line is named with its number and
 * what is wrong in it.
 */
class HistoryReadingTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("a history of every kind of line, as the run wrote it in format 1, reads whole")
    void readsEveryKindOfLineTheRunWrote() throws URISyntaxException {
        History history = History.read(Path.of(HistoryReadingTests.class.getResource("every-kind-format-1.jsonl").toURI()));

        assertThat(history.problems()).as("a history the run wrote is complete and valid").isEmpty();
        assertThat(history.seed()).as("the header's seed").isEqualTo(11);
        assertThat(history.writerNames()).as("the header's writers").containsExactly("w1", "w2");
        assertThat(history.modes()).as("the header's modes").containsExactly(Mode.PLAIN, Mode.FENCED, Mode.CURRENT_OWNER);
        assertThat(history.acquisitions()).as("both acquisitions, in file order").extracting(a -> a.writer() + ":" + a.token() + "@" + a.atMicros())
                .containsExactly("w1:7@1796353209850137", "w2:9@1796353212500000");
        assertThat(history.writes()).as("every write with its line, in file order")
                .extracting(w -> w.line() + " " + w.writer() + " " + w.mode() + " " + w.value() + " " + w.verdict())
                .containsExactly("3 w1 plain w1-7-0-0 accepted", "4 w1 fenced w1-7-0-0 accepted", "6 w1 current-owner w1-7-0-0 error",
                        "8 w2 fenced w2-9-0-0 accepted", "9 w2 current-owner w2-9-0-0 accepted", "11 w1 fenced w1-7-0-1 rejected");
        assertThat(history.writes().get(2)).as("the write that got no verdict keeps its times")
                .extracting(History.Write::token, History.Write::lease, History.Write::sentAtMicros, History.Write::receivedAtMicros)
                .containsExactly(7L, "0x694d9a3e0c1f2b01", 1796353210115000L, 1796353215115000L);
        assertThat(history.faults()).as("the nemesis's freeze and thaw")
                .containsExactly(new HistoryLine.Fault(HistoryLine.Fault.Action.FREEZE, "w1", 1796353210120000L),
                        new HistoryLine.Fault(HistoryLine.Fault.Action.THAW, "w1", 1796353215200000L));
    }

    @Test
    @DisplayName("a whole real chaos run, as the run wrote it, reads whole")
    void readsAWholeRealRun() throws IOException {
        Path file;
        try (InputStream in = new GZIPInputStream(HistoryReadingTests.class.getResourceAsStream("chaos-seed-3-whole.jsonl.gz"))) {
            file = Files.write(dir.resolve("chaos-seed-3.jsonl"), in.readAllBytes());
        }
        History history = History.read(file);

        assertThat(history.problems()).as("a history the run wrote is complete and valid").isEmpty();
        assertThat(history.seed()).as("the header's seed").isEqualTo(3);
        assertThat(history.writers()).as("the header's writers").isEqualTo(4);
        assertThat(history.writes()).as("every write line").hasSize(189);
        assertThat(history.acquisitions()).as("every acquired line").hasSize(21);
        assertThat(history.faults()).as("one freeze and its thaw").extracting(HistoryLine.Fault::action)
                .containsExactly(HistoryLine.Fault.Action.FREEZE, HistoryLine.Fault.Action.THAW);
    }

    /** A history of one write: header (line 1), acquired (2), write (3), both writer-ends (4, 5) and end (6). */
    private static List<String> oneWrite() {
        return new HandMadeHistory(List.of("A", "B"), List.of("plain", "fenced"))
                .acquired("A", 5, 1_000).write("A", 5, "fenced", 1_100, 1_200, "accepted").complete();
    }

    private static Arguments change(String what, int line, UnaryOperator<String> change, String problem) {
        return Arguments.of(what, line, change, problem);
    }

    static Stream<Arguments> badLines() {
        return Stream.of(
                change("a write without its token", 3, l -> l.replace("\"token\":5,", ""), "line 3: missing field 'token'"),
                change("a write whose token is null", 3, l -> l.replace("\"token\":5,", "\"token\":null,"), "line 3: missing field 'token'"),
                change("a token written as a string", 3, l -> l.replace("\"token\":5,", "\"token\":\"5\","),
                        "line 3: field 'token' must be an integer, got \"5\""),
                change("a token with a fraction", 3, l -> l.replace("\"token\":5,", "\"token\":5.5,"), "line 3: field 'token' must be an integer, got 5.5"),
                change("a mode written as a number", 3, l -> l.replace("\"mode\":\"fenced\"", "\"mode\":7"),
                        "line 3: field 'mode' must be one of plain, fenced, current-owner, got 7"),
                change("a verdict written as an object", 3, l -> l.replace("\"verdict\":\"accepted\"", "\"verdict\":{}"),
                        "line 3: field 'verdict' must be one of accepted, rejected, error, got an object"),
                change("a verdict written as a number", 3, l -> l.replace("\"verdict\":\"accepted\"", "\"verdict\":1"),
                        "line 3: field 'verdict' must be one of accepted, rejected, error, got 1"),
                change("an after-state whose value is a number", 3, l -> l.replace("\"after\":{\"value\":\"x\"", "\"after\":{\"value\":5"),
                        "line 3: field 'after.value' must be a string, got 5"),
                change("a line that is an array", 3, l -> "[" + l + "]", "line 3: a line must be a JSON object, got an array"),
                change("a second object on one line", 3, l -> l + " {}", "line 3: not JSON (trailing content after the object: {)"),
                change("a line without its type", 3, l -> l.replace("\"type\":\"write\",", ""), "line 3: missing field 'type'"),
                change("a line of an unknown type", 3, l -> "{\"type\":\"resumed\",\"writer\":\"A\",\"atMicros\":1}", "line 3: unknown type 'resumed'"),
                change("a first line that is not the header", 1, l -> "{\"type\":\"acquired\",\"writer\":\"A\",\"token\":5,\"atMicros\":1}",
                        "line 1: the first line must be the history header, got type 'acquired'"),
                change("a second header", 2, l -> oneWrite().get(0), "line 2: a second history header"),
                change("a header of another format", 1, l -> l.replace("\"format\":1", "\"format\":2"),
                        "line 1: format 2 is not the format 1 this checker reads"),
                change("a header without its seed", 1, l -> l.replace("\"seed\":42,", ""), "line 1: missing field 'seed'"),
                change("a header without writers", 1, l -> l.replace("[\"A\",\"B\"]", "[]"), "line 1: writerNames and modes must be non-empty arrays"),
                change("a header whose writers are not an array", 1, l -> l.replace("[\"A\",\"B\"]", "\"A\""),
                        "line 1: field 'writerNames' must be an array, got \"A\""),
                change("a header with a writer that is not a string", 1, l -> l.replace("[\"A\",\"B\"]", "[\"A\",7]"),
                        "line 1: field 'writerNames[1]' must be a string, got 7"),
                change("a header without modes", 1, l -> l.replace("\"modes\":[\"plain\",\"fenced\"],", ""), "line 1: missing field 'modes'"),
                change("a writer the header does not name", 2, l -> l.replace("\"writer\":\"A\"", "\"writer\":\"C\""),
                        "line 2: writer 'C' is not among the header's writers [A, B]"),
                change("a header with a mode that is none of the three", 1, l -> l.replace("[\"plain\",\"fenced\"]", "[\"plain\",\"fancy\"]"),
                        "line 1: field 'modes[1]' must be one of plain, fenced, current-owner, got \"fancy\""),
                change("a mode the header does not name", 3, l -> l.replace("\"mode\":\"fenced\"", "\"mode\":\"current-owner\""),
                        "line 3: mode 'current-owner' is not among the header's modes [plain, fenced]"),
                change("a mode that is none of the three", 3, l -> l.replace("\"mode\":\"fenced\"", "\"mode\":\"other\""),
                        "line 3: field 'mode' must be one of plain, fenced, current-owner, got \"other\""),
                change("a verdict that is none of the three", 3, l -> l.replace("\"verdict\":\"accepted\"", "\"verdict\":\"maybe\""),
                        "line 3: field 'verdict' must be one of accepted, rejected, error, got \"maybe\""),
                change("a verdict with a space before it", 3, l -> l.replace("\"verdict\":\"accepted\"", "\"verdict\":\" accepted\""),
                        "line 3: field 'verdict' must be one of accepted, rejected, error, got \" accepted\""),
                change("a verdict spelled as a constant of the code", 3, l -> l.replace("\"verdict\":\"accepted\"", "\"verdict\":\"ACCEPTED\""),
                        "line 3: field 'verdict' must be one of accepted, rejected, error, got \"ACCEPTED\""),
                change("a mode spelled as a constant of the code", 3, l -> l.replace("\"mode\":\"fenced\"", "\"mode\":\"FENCED\""),
                        "line 3: field 'mode' must be one of plain, fenced, current-owner, got \"FENCED\""),
                change("a write received before it was sent", 3, l -> l.replace("\"sentAtMicros\":1100", "\"sentAtMicros\":1300"),
                        "line 3: received before it was sent"),
                change("a nemesis action that is none of the four", 3, l -> "{\"type\":\"nemesis\",\"action\":\"pause\",\"writer\":\"A\",\"atMicros\":1150}",
                        "line 3: field 'action' must be one of freeze, thaw, cut, heal, got \"pause\""),
                change("a nemesis action with a space before it", 3, l -> "{\"type\":\"nemesis\",\"action\":\" freeze\",\"writer\":\"A\",\"atMicros\":1150}",
                        "line 3: field 'action' must be one of freeze, thaw, cut, heal, got \" freeze\""),
                change("a nemesis action written as a number", 3, l -> "{\"type\":\"nemesis\",\"action\":1,\"writer\":\"A\",\"atMicros\":1150}",
                        "line 3: field 'action' must be one of freeze, thaw, cut, heal, got 1"),
                change("an acquisition without its time", 2, l -> l.replace(",\"atMicros\":1000", ""), "line 2: missing field 'atMicros'"),
                change("a second writer-end for one writer", 5, l -> oneWrite().get(3), "line 5: a second writer-end for A"),
                change("an end line whose count is a string", 6, l -> l.replace("\"writes\":1", "\"writes\":\"1\""),
                        "line 6: field 'writes' must be an integer, got \"1\""),
                change("a line after the end line", 6, l -> l + System.lineSeparator() + l, "line 7: content after the end line"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badLines")
    @DisplayName("a bad line makes the history invalid, named by its number and what is wrong in it")
    void aBadLineIsNamedWithWhatIsWrong(String what, int line, UnaryOperator<String> change, String problem) {
        List<String> lines = new ArrayList<>(oneWrite());
        lines.set(line - 1, change.apply(lines.get(line - 1)));
        History history = History.read(HandMadeHistory.save(dir, "bad.jsonl", lines));

        assertThat(history.problems()).as("the problems of %s", what).containsExactly(problem);
    }

    @Test
    @DisplayName("a line cut short is named as not JSON, with the parser's reason")
    void aLineCutShortIsNotJson() {
        List<String> lines = new ArrayList<>(oneWrite());
        lines.set(2, lines.get(2).substring(0, 40));
        History history = History.read(HandMadeHistory.save(dir, "cut.jsonl", lines));

        assertThat(history.problems()).as("the problems of a history cut in its third line").singleElement().asString()
                .startsWith("line 3: not JSON (Unexpected end-of-input");
    }

    @Test
    @DisplayName("an empty file and a missing one are named as such")
    void emptyAndMissingFilesAreNamed() throws IOException {
        Path empty = Files.createFile(dir.resolve("empty.jsonl"));

        assertThat(History.read(empty).problems()).as("an empty file").containsExactly("empty: no history header");
        assertThat(History.read(dir.resolve("missing.jsonl")).problems()).as("no file").containsExactly("no history file at " + dir.resolve("missing.jsonl"));
    }
}
