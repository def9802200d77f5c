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
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The linearizability check on hand-made histories, one for each anomaly, and on the recorded opening of a real chaos run. */
class LinearizabilityTests {

    @TempDir
    Path dir;

    private static HandMadeHistory fenced() {
        return new HandMadeHistory(List.of("A", "B", "C"), List.of("fenced"));
    }

    private Linearizability.Result check(HandMadeHistory history, long maxStates) {
        return Linearizability.check(History.read(history.save(dir, "history.jsonl")), maxStates).get(Mode.FENCED);
    }

    private Linearizability.Result check(HandMadeHistory history) {
        return check(history, Linearizability.DEFAULT_MAX_STATES);
    }

    @Test
    @DisplayName("a sequential history of rising tokens, one stale write rejected, is linearizable")
    void sequentialFencedHistoryIsLinearizable() {
        HandMadeHistory history = fenced().write("A", 5, "fenced", 1_000, 1_100, "accepted").write("A", 5, "fenced", 1_200, 1_300, "accepted")
                .write("B", 8, "fenced", 2_000, 2_100, "accepted").write("A", 5, "fenced", 3_000, 3_100, "rejected");

        assertThat(check(history).answer()).as("tokens 5, 5, 8 accepted one after the other, then 5 rejected").isEqualTo(Linearizability.Answer.LINEARIZABLE);
    }

    @Test
    @DisplayName("overlapping writes are linearizable when one order explains them, even if it is not the order they were sent in")
    void overlappingWritesAreLinearizableInTheOneOrderThatFits() {
        // B's token 8 is sent first but both are accepted: only A's 5 then B's 8 fits the mark.
        HandMadeHistory oneOrder = fenced().write("B", 8, "fenced", 1_000, 2_000, "accepted").write("A", 5, "fenced", 1_100, 1_900, "accepted");
        // A later rejection of token 6 needs B's 8 before it, which is still that order.
        HandMadeHistory withRejection = fenced().write("B", 8, "fenced", 1_000, 2_000, "accepted").write("A", 5, "fenced", 1_100, 1_900, "accepted")
                .write("C", 6, "fenced", 2_500, 2_600, "rejected");
        // Were the two not overlapping, 8 then 5 would be the only order, and it does not fit.
        HandMadeHistory apart = fenced().write("B", 8, "fenced", 1_000, 1_050, "accepted").write("A", 5, "fenced", 1_100, 1_900, "accepted");

        assertThat(check(oneOrder).answer()).as("8 sent at 1000, 5 sent at 1100, both in flight till 1900/2000, both accepted")
                .isEqualTo(Linearizability.Answer.LINEARIZABLE);
        assertThat(check(withRejection).answer()).as("the same, then 6 rejected at 2500-2600").isEqualTo(Linearizability.Answer.LINEARIZABLE);
        assertThat(check(apart).answer()).as("8 answered at 1050, before 5 was sent at 1100, both accepted")
                .isEqualTo(Linearizability.Answer.NOT_LINEARIZABLE);
    }

    @Test
    @DisplayName("a stale acceptance is not linearizable, and the stretch printed is exactly the newer write and the stale one")
    void staleAcceptanceIsNotLinearizableAndItsStretchIsMinimal() {
        HandMadeHistory history = fenced().acquired("A", 5, 900).write("A", 5, "fenced", 1_000, 1_100, "accepted")
                .write("A", 5, "fenced", 1_200, 1_300, "accepted")
                .acquired("B", 8, 2_000).write("B", 8, "fenced", 2_100, 2_200, "accepted")
                .write("A", 5, "fenced", 3_000, 3_100, "accepted")
                .acquired("C", 9, 4_000).write("C", 9, "fenced", 4_100, 4_200, "accepted");
        Linearizability.Result result = check(history);
        Result printed = run(history.save(dir, "stale.jsonl"));

        assertThat(result.answer()).as("A's token 5 accepted after B's 8 was").isEqualTo(Linearizability.Answer.NOT_LINEARIZABLE);
        assertThat(result.narrowed()).as("the narrowing finished within the bound").isTrue();
        assertThat(result.stretch()).extracting(Operation::line).as("the lines of B's write and A's stale write").containsExactly(6, 7);
        assertThat(printed.exit).as("a fenced history that no order explains is a violation; it said:%n%s", printed.out).isEqualTo(1);
        assertThat(printed.out).as("the stretch, by line, and the verdict naming fenced")
                .contains("NOT LINEARIZABLE: a VIOLATION in fenced").contains("the shortest stretch that no order explains, 2 writes:")
                .contains("line 6: B, token 8").contains("line 7: A, token 5").doesNotContain("line 3: A").doesNotContain("line 9: C")
                .contains("verdict: VIOLATIONS in fenced (exit 1)");
    }

    @Test
    @DisplayName("a rejection no order explains, a token above every accepted one, is not linearizable: a violation the counts miss")
    void unexplainedRejectionIsNotLinearizable() {
        HandMadeHistory history = fenced().write("A", 5, "fenced", 1_000, 1_100, "accepted").write("B", 8, "fenced", 2_000, 2_100, "accepted")
                .write("C", 9, "fenced", 3_000, 3_100, "rejected").write("B", 8, "fenced", 4_000, 4_100, "accepted");
        Linearizability.Result result = check(history);
        Result printed = run(history.save(dir, "lost.jsonl"));

        assertThat(result.answer()).as("C's token 9 rejected when the mark can only have been 8").isEqualTo(Linearizability.Answer.NOT_LINEARIZABLE);
        assertThat(result.stretch()).extracting(Operation::line).as("C's rejection alone: no mark left before it is above 9").containsExactly(4);
        assertThat(printed.exit).as("a lost update by rejection in fenced; it said:%n%s", printed.out).isEqualTo(1);
        assertThat(printed.out).as("the counts see no stale write").contains("stale writes accepted 0").contains("VIOLATIONS in fenced");
    }

    @Test
    @DisplayName("a write without an answer is linearizable if it took effect, when only its effect explains a later rejection")
    void unknownOutcomeThatMustHaveTakenEffect() {
        HandMadeHistory unknown = fenced().write("B", 8, "fenced", 1_000, 1_100, "error").write("A", 5, "fenced", 2_000, 2_100, "rejected");
        HandMadeHistory rejected = fenced().write("B", 8, "fenced", 1_000, 1_100, "rejected").write("A", 5, "fenced", 2_000, 2_100, "rejected");

        assertThat(check(unknown).answer()).as("token 8 without an answer, then 5 rejected: 8 took effect").isEqualTo(Linearizability.Answer.LINEARIZABLE);
        assertThat(check(rejected).answer()).as("token 8 rejected, then 5 rejected: nothing raised the mark").isEqualTo(Linearizability.Answer.NOT_LINEARIZABLE);
    }

    @Test
    @DisplayName("a write without an answer is linearizable if it took no effect yet, when its effect would make later acceptances stale")
    void unknownOutcomeThatMustNotHaveTakenEffect() {
        HandMadeHistory unknown = fenced().write("B", 8, "fenced", 1_000, 1_100, "error").write("A", 5, "fenced", 2_000, 2_100, "accepted")
                .write("A", 5, "fenced", 3_000, 3_100, "accepted");
        HandMadeHistory accepted = fenced().write("B", 8, "fenced", 1_000, 1_100, "accepted").write("A", 5, "fenced", 2_000, 2_100, "accepted");

        assertThat(check(unknown).answer()).as("token 8 without an answer, then 5 accepted twice: 8 came later or never")
                .isEqualTo(Linearizability.Answer.LINEARIZABLE);
        assertThat(check(accepted).answer()).as("token 8 accepted, then 5 accepted").isEqualTo(Linearizability.Answer.NOT_LINEARIZABLE);
    }

    @Test
    @DisplayName("a bound too small for the search answers unknown, and check-history exits 2")
    void tooSmallABoundIsUnknown() {
        HandMadeHistory history = fenced().write("A", 5, "fenced", 1_000, 1_100, "accepted").write("B", 8, "fenced", 2_000, 2_100, "accepted")
                .write("C", 9, "fenced", 3_000, 3_100, "accepted");
        Result printed = run(history.save(dir, "bounded.jsonl"), "--max-states", "2");

        assertThat(check(history, 2).answer()).as("three sequential writes need three states, the bound is 2").isEqualTo(Linearizability.Answer.UNKNOWN);
        assertThat(check(history, 3).answer()).as("the same with a bound of 3").isEqualTo(Linearizability.Answer.LINEARIZABLE);
        assertThat(printed.exit).as("a search stopped by its bound is unknown; it said:%n%s", printed.out).isEqualTo(2);
        assertThat(printed.out).as("and says why").contains("linearizability UNKNOWN: the search stopped at its bound of 2 states");
    }

    @Test
    @DisplayName("a current-owner rejection at or above the mark is explained by the owner check, not held against the mode")
    void currentOwnerRejectionsAreExplainedByTheOwnerCheck() {
        HandMadeHistory history = new HandMadeHistory(List.of("A", "B"), List.of("current-owner"))
                .write("A", 5, "current-owner", 1_000, 1_100, "accepted").write("A", 5, "current-owner", 3_000, 3_100, "rejected");
        Linearizability.Result result = Linearizability.check(History.read(history.save(dir, "owner.jsonl")), 100).get(Mode.CURRENT_OWNER);

        assertThat(result.answer()).as("A's token 5 rejected after its lease was gone, before any newer token wrote")
                .isEqualTo(Linearizability.Answer.LINEARIZABLE);
    }

    @Test
    @DisplayName("the recorded opening of a real chaos run: fenced and current-owner linearizable, plain not, with a short stretch")
    void realChaosRunIsCheckedPerMode() throws IOException {
        Path file = dir.resolve("chaos.jsonl");
        try (InputStream in = new GZIPInputStream(LinearizabilityTests.class.getResourceAsStream("chaos-seed-5-opening.jsonl.gz"))) {
            Files.write(file, in.readAllBytes());
        }
        Map<Mode, Linearizability.Result> results = Linearizability.check(History.read(file), Linearizability.DEFAULT_MAX_STATES);
        Result printed = run(file);

        assertThat(results.get(Mode.FENCED).answer()).as("the fenced mode of the seed-5 run").isEqualTo(Linearizability.Answer.LINEARIZABLE);
        assertThat(results.get(Mode.CURRENT_OWNER).answer()).as("the current-owner mode of the seed-5 run").isEqualTo(Linearizability.Answer.LINEARIZABLE);
        assertThat(results.get(Mode.PLAIN).answer()).as("the plain mode of the seed-5 run, which accepted stale writes")
                .isEqualTo(Linearizability.Answer.NOT_LINEARIZABLE);
        assertThat(results.get(Mode.PLAIN).stretch()).as("plain's stretch: a few writes around its first stale acceptance").isNotEmpty().hasSizeLessThan(10);
        assertThat(printed.exit).as("plain's history is expected not to be linearizable; it said:%n%s", printed.out).isZero();
        assertThat(printed.out).as("what it says of each mode").contains("NOT linearizable, as expected of plain")
                .contains("verdict: ok, no violation");
    }

    private static Result run(Path file, String... options) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String[] args = new String[options.length + 1];
        args[0] = file.toString();
        System.arraycopy(options, 0, args, 1, options.length);
        int exit = CheckHistory.run(args, new PrintStream(out, true, StandardCharsets.UTF_8));
        return new Result(exit, out.toString(StandardCharsets.UTF_8));
    }

    private record Result(int exit, String out) {
    }
}
