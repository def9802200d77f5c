package fencing.lab.history;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.lab.sink.Mode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history checker on hand-made histories: one for each kind of violation, clean ones, and ones it must call unknown. */
class HistoryCheckerTests {

    @TempDir
    Path dir;

    /** A holds token 5, is frozen; B gets token 8 and writes; A's write is sent after B's was accepted. */
    private static HandMadeHistory lateWrite(String aVerdict) {
        return new HandMadeHistory(List.of("A", "B"), List.of("plain", "fenced"))
                .acquired("A", 5, 1_000).write("A", 5, "fenced", 1_100, 1_200, "accepted")
                .acquired("B", 8, 5_000).write("B", 8, "fenced", 5_100, 5_200, "accepted")
                .write("A", 5, "fenced", 6_000, 6_100, aVerdict);
    }

    @Test
    @DisplayName("a late write rejected after a newer token was accepted is clean: exit 0")
    void rejectedLateWriteIsClean() {
        Result result = run(lateWrite("rejected").save(dir, "clean.jsonl"));

        assertThat(result.exit).as("no violation in a history where the sink rejected the stale token; it said:%n%s", result.out).isZero();
        assertThat(result.out).as("the summary names the counts").contains("stale writes accepted 0");
    }

    @Test
    @DisplayName("a stale write accepted after a newer token: one stale write, one lost update, exit 1")
    void staleAcceptanceIsAViolation() {
        Path file = lateWrite("accepted").save(dir, "stale.jsonl");
        HistoryChecker.ModeFindings fenced = HistoryChecker.check(file).modes().get(Mode.FENCED);
        Result result = run(file);

        assertThat(fenced.staleAccepted()).as("token 5 accepted after token 8 was accepted").isEqualTo(1);
        assertThat(fenced.lostUpdates()).as("B's accepted write was overwritten by the stale one").isEqualTo(1);
        assertThat(fenced.expiredHolderAccepted()).as("A wrote after token 8 was granted: its lease was gone").isEqualTo(1);
        assertThat(result.exit).as("a stale acceptance is a violation; it said:%n%s", result.out).isEqualTo(1);
        assertThat(result.out).as("the violation is listed by line").contains("line 6: stale write accepted");
    }

    @Test
    @DisplayName("a real chaos history whose plain mode accepted stale writes is as the lesson expects: exit 0, plain's counts reported as expected")
    void plainStaleWritesOfARealChaosRunAreExpected() throws IOException {
        Path file = realChaosOpening(List.of());
        HistoryChecker.Findings findings = HistoryChecker.check(file);
        Result result = run(file);

        assertThat(findings.modes().get(Mode.PLAIN).staleAccepted()).as("stale writes the plain mode accepted in the recorded run").isPositive();
        assertThat(findings.modes().get(Mode.FENCED).staleAccepted()).as("stale writes the fenced mode accepted in the recorded run").isZero();
        assertThat(result.exit).as("exit code on a run the study reported as expected; it said:%n%s", result.out).isZero();
        assertThat(result.out).as("what it says of each mode").contains("as expected of plain: it has no fencing")
                .contains("kept by fenced: it must accept no stale write").contains("kept by current-owner: it must accept no stale write")
                .contains("verdict: ok, no violation");
    }

    @Test
    @DisplayName("the same real history with one stale write accepted by the fenced mode: exit 1, the violation named as fenced's")
    void aFencedStaleWriteInARealChaosRunIsAViolation() throws IOException {
        // Line 1005 is the fenced mode's rejection of w3's token 172, sent after token 182 was accepted there.
        Path file = realChaosOpening(List.of(1005));
        Result result = run(file);

        assertThat(result.exit).as("exit code with a stale write accepted in the fenced mode; it said:%n%s", result.out).isEqualTo(1);
        assertThat(result.out).as("what it says of each mode").contains("VIOLATIONS in fenced: it must accept no stale write")
                .contains("as expected of plain").contains("line 1005: stale write accepted").contains("verdict: VIOLATIONS in fenced (exit 1)");
    }

    /**
     * Returns the opening of a real chaos run (seed 5, four writers: its first 1030 lines, through the first stale writes
     * that the plain mode accepted, and closing lines counting the writes kept), with the fenced verdicts on the given
     * lines turned from rejected to accepted.
     */
    private Path realChaosOpening(List<Integer> acceptedInstead) throws IOException {
        List<String> lines;
        try (InputStream in = new GZIPInputStream(HistoryCheckerTests.class.getResourceAsStream("chaos-seed-5-opening.jsonl.gz"))) {
            lines = new ArrayList<>(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
        }
        for (int line : acceptedInstead) {
            String text = lines.get(line - 1);
            assertThat(text).as("line %d of the recorded run", line).contains("\"mode\":\"fenced\"").contains("\"verdict\":\"rejected\"");
            lines.set(line - 1, text.replace("\"verdict\":\"rejected\"", "\"verdict\":\"accepted\""));
        }
        return Files.write(dir.resolve("chaos-" + acceptedInstead.size() + ".jsonl"), lines);
    }

    @Test
    @DisplayName("two stale writes over the same newer write count two stale acceptances but one lost update")
    void lostUpdatesCountTheOverwrittenWritesOnce() {
        Path file = lateWrite("accepted").write("A", 5, "fenced", 7_000, 7_100, "accepted").save(dir, "twice.jsonl");
        HistoryChecker.ModeFindings fenced = HistoryChecker.check(file).modes().get(Mode.FENCED);

        assertThat(fenced.staleAccepted()).as("both of A's late writes").isEqualTo(2);
        assertThat(fenced.lostUpdates()).as("only B's one write was lost").isEqualTo(1);
    }

    @Test
    @DisplayName("an expired holder's write accepted before any newer token reached the sink is counted, not a violation")
    void expiredHolderBeforeNewerTokenIsAllowedByTheHighWaterMark() {
        Path file = new HandMadeHistory(List.of("A", "B"), List.of("fenced"))
                .acquired("A", 5, 1_000).acquired("B", 8, 5_000)
                .write("A", 5, "fenced", 5_500, 5_600, "accepted")
                .write("B", 8, "fenced", 6_000, 6_100, "accepted").save(dir, "pre-contact.jsonl");
        HistoryChecker.Findings findings = HistoryChecker.check(file);

        assertThat(findings.modes().get(Mode.FENCED).expiredHolderAccepted()).as("A's write came after token 8 was granted").isEqualTo(1);
        assertThat(findings.modes().get(Mode.FENCED).staleAccepted()).as("but before token 8 reached the sink").isZero();
        assertThat(findings.verdict()).as("the narrower contract of a high-water mark allows it").isEqualTo(HistoryChecker.Verdict.OK);
    }

    @Test
    @DisplayName("in a current-owner mode the same expired-holder write is a violation")
    void expiredHolderIsAViolationForACurrentOwnerMode() {
        Path file = new HandMadeHistory(List.of("A", "B"), List.of("current-owner"))
                .acquired("A", 5, 1_000).acquired("B", 8, 5_000)
                .write("A", 5, "current-owner", 5_500, 5_600, "accepted").save(dir, "current-owner.jsonl");

        assertThat(run(file).exit).as("a current-owner sink must accept only the current holder").isEqualTo(1);
    }

    @Test
    @DisplayName("writes in flight at the same time are never held against each other")
    void overlappingWritesAreNotStale() {
        Path file = new HandMadeHistory(List.of("A", "B"), List.of("fenced"))
                .acquired("A", 5, 1_000).write("A", 5, "fenced", 1_100, 1_200, "accepted")
                .acquired("B", 8, 2_000)
                .write("B", 8, "fenced", 2_100, 3_000, "accepted")
                .write("A", 5, "fenced", 2_500, 3_100, "accepted").save(dir, "overlap.jsonl");
        HistoryChecker.Findings findings = HistoryChecker.check(file);

        assertThat(findings.modes().get(Mode.FENCED).staleAccepted())
                .as("A's write was sent before B's response arrived, so no order between them is known").isZero();
        assertThat(findings.verdict()).isEqualTo(HistoryChecker.Verdict.OK);
    }

    @Test
    @DisplayName("a truncated history, cut after a write, is unknown: exit 2, never ok")
    void truncatedHistoryIsUnknown() {
        List<String> lines = lateWrite("rejected").complete();
        Path file = HandMadeHistory.save(dir, "truncated.jsonl", lines.subList(0, 5));
        Result result = run(file);

        assertThat(result.exit).as("an incomplete history cannot be judged; it said:%n%s", result.out).isEqualTo(2);
        assertThat(result.out).as("and says why").contains("incomplete");
    }

    @Test
    @DisplayName("a history cut in the middle of a line, or with a line that is not JSON, is unknown")
    void unparsableLineIsUnknown() {
        List<String> lines = new ArrayList<>(lateWrite("rejected").complete());
        lines.set(3, lines.get(3).substring(0, 40));

        assertThat(run(HandMadeHistory.save(dir, "cut.jsonl", lines)).exit).as("a line that is not JSON").isEqualTo(2);
    }

    @Test
    @DisplayName("a missing field, an unknown mode, a count that does not match or a missing file is unknown")
    void invalidHistoriesAreUnknown() {
        List<String> base = lateWrite("accepted").complete();
        List<String> noToken = new ArrayList<>(base);
        noToken.set(2, noToken.get(2).replace("\"token\":5,", ""));
        List<String> badMode = new ArrayList<>(base);
        badMode.set(2, badMode.get(2).replace("\"mode\":\"fenced\"", "\"mode\":\"other\""));
        List<String> badCount = new ArrayList<>(base);
        badCount.set(badCount.size() - 1, "{\"type\":\"end\",\"writes\":99}");

        assertThat(run(HandMadeHistory.save(dir, "no-token.jsonl", noToken)).exit).as("a write without its token").isEqualTo(2);
        assertThat(run(HandMadeHistory.save(dir, "bad-mode.jsonl", badMode)).exit).as("a mode the header does not name").isEqualTo(2);
        assertThat(run(HandMadeHistory.save(dir, "bad-count.jsonl", badCount)).exit)
                .as("an end line that counts more writes than the history holds, even with a stale write in it").isEqualTo(2);
        assertThat(run(dir.resolve("missing.jsonl")).exit).as("no file at all").isEqualTo(2);
    }

    @Test
    @DisplayName("a write that got no verdict leaves its mode unknown")
    void writeWithoutVerdictIsUnknown() {
        Path file = lateWrite("error").save(dir, "no-verdict.jsonl");
        HistoryChecker.Findings findings = HistoryChecker.check(file);

        assertThat(findings.modes().get(Mode.FENCED).complete()).as("A's late write may or may not have been applied").isFalse();
        assertThat(findings.verdict()).isEqualTo(HistoryChecker.Verdict.UNKNOWN);
    }

    @Test
    @DisplayName("wrong usage is unknown too, with the usage line")
    void wrongUsageIsUnknown() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = CheckHistory.run(new String[0], new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(exit).as("no file named").isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage: check-history FILE");
    }

    private static Result run(Path file) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = CheckHistory.run(new String[] {file.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8));
        return new Result(exit, out.toString(StandardCharsets.UTF_8));
    }

    private record Result(int exit, String out) {
    }
}
