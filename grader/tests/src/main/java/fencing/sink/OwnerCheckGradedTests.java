package fencing.sink;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import fencing.grading.TestGroup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Part 4 on real SQLite files: the owner check is part of the write's transaction, and it fails closed. */
@TestGroup("current-owner")
@DisplayName("Part 4: OwnerCheckingSink asks the lock service inside the transaction")
class OwnerCheckGradedTests {

    private static final long SEED_MARK = 3;
    private static final long A = 5;
    private static final long B = 9;

    @Test
    @Graded(points = 2, tags = {"extension", "current-owner"})
    @DisplayName("The owner check is asked while the write's transaction holds SQLite's write lock")
    void ownerCheckIsAskedWhileTheWriteLockIsHeld(@TempDir Path dir) {
        Path file = dir.resolve("sink.db");
        SinkTable.prepare(file, "seed", SEED_MARK);
        List<Boolean> lockHeldAtQuestion = Collections.synchronizedList(new ArrayList<>());
        OwnerCheck owners = token -> {
            lockHeldAtQuestion.add(SinkTable.writeLockHeld(file));
            return token == A;
        };

        WriteResult result = new OwnerCheckingSink(ConnectionSource.sqlite(file), owners).write(A, "owner 5");

        assertThat(result)
                .as("token 5 is the current holder's and above the mark 3, so the write must be accepted")
                .isEqualTo(new WriteResult(true, A, "owner 5"));
        assertThat(lockHeldAtQuestion)
                .as("a write with token 5 (not below the mark 3) must ask the lock service whether it is the current holder's")
                .isNotEmpty();
        assertThat(lockHeldAtQuestion)
                .as("the owner check must be asked while the transaction holds SQLite's write lock (after BEGIN IMMEDIATE, "
                        + "before COMMIT), so that no other write can land between the answer and the commit; at each "
                        + "question the write lock was held: %s", lockHeldAtQuestion)
                .containsOnly(true);
    }

    @Test
    @Graded(points = 3, tags = {"extension", "current-owner"})
    @DisplayName("Ownership passing to B between A's check and A's commit never lets A's write land after B's")
    void ownershipPassingMidWriteNeverLetsAStaleWriteThrough(@TempDir Path dir) throws InterruptedException {
        Path alone = dir.resolve("alone.db");
        SinkTable.prepare(alone, "seed", SEED_MARK);
        List<String> steps = OwnerRaces.stepsOfOneWrite(alone, A, "A");
        assertThat(steps)
                .as("a current owner's write must ask the lock service and run its statements on connections from its "
                        + "ConnectionSource%nalone it made the steps %s", steps)
                .contains("isCurrent")
                .hasSizeGreaterThan(1);

        for (int k = 1; k <= steps.size(); k++) {
            Path file = dir.resolve("held-after-" + k + ".db");
            SinkTable.prepare(file, "seed", SEED_MARK);
            SinkTable.installCommitLog(file);

            Optional<OwnerRaces.Outcome> run = OwnerRaces.run(file, k, A, "A", B, "B");

            assertThat(run)
                    .as("alone, a write with token 5 made the steps %s; run again it ended before step %d: a write must "
                            + "do the same work every time", steps, k)
                    .isPresent();
            check(run.get());
        }
    }

    private static void check(OwnerRaces.Outcome outcome) {
        // On a line of its own: the rule and what was observed come first.
        String how = "\n" + outcome.interleaving();
        assertThat(List.of(String.valueOf(outcome.first().failure()), String.valueOf(outcome.second().failure())))
                .as("every write must end accepted or rejected, never with an exception: %s; (writer 1, writer 2) threw", how)
                .containsOnly("null");
        assertThat(outcome.second().accepted())
                .as("writer 2 holds the lock with token 9, above every mark, so its write must be accepted: %s; it got %s",
                        how, outcome.second().result())
                .isTrue();
        List<String> values = outcome.log().stream().map(SinkTable.Change::value).collect(Collectors.toList());
        assertThat(outcome.after())
                .as("after both writes the sink must hold the new owner's write (\"B\", 9): a stale write must not land "
                        + "after the current owner's; %s; the values, in commit order, were %s", how, values)
                .isEqualTo(new SinkState("B", B));
        if (outcome.first().accepted()) {
            assertThat(values.indexOf("A"))
                    .as("writer 1 was told its token 5 was accepted, so it must have been committed before the new owner's "
                            + "write: %s; the values, in commit order, were %s", how, values)
                    .isBetween(0, values.indexOf("B") - 1);
        } else {
            assertThat(values)
                    .as("writer 1 was told its token 5 was rejected, so its value must never have been stored: %s; the "
                            + "values, in commit order, were %s", how, values)
                    .doesNotContain("A");
        }
    }

    @Test
    @Graded(points = 2, tags = {"extension", "current-owner"})
    @DisplayName("If the owner check fails, the write is rejected and nothing changes (fail closed)")
    void failingOwnerCheckRejectsTheWrite(@TempDir Path dir) {
        Path file = dir.resolve("sink.db");
        SinkTable.prepare(file, "seed", SEED_MARK);
        OwnerCheck unreachable = token -> {
            throw new IllegalStateException("the lock service did not answer within 5 s");
        };

        PausedWrites.Call call = PausedWrites.Call.of(() -> new OwnerCheckingSink(ConnectionSource.sqlite(file), unreachable).write(A, "unconfirmed"));

        assertThat(call.failure())
                .as("when the lock service cannot say who holds the lock, the write must be rejected (fail closed), not "
                        + "end with an exception; it threw")
                .isNull();
        assertThat(call.result())
                .as("an owner that cannot be confirmed is not the owner: the write with token 5 must be rejected, and a "
                        + "rejection returns the unchanged state (\"seed\", mark 3)")
                .isEqualTo(new WriteResult(false, SEED_MARK, "seed"));
        assertThat(SinkTable.read(file))
                .as("a write rejected because the owner check failed must change nothing")
                .isEqualTo(new SinkState("seed", SEED_MARK));
    }

    @Test
    @Graded(points = 2, tags = {"extension", "current-owner"})
    @DisplayName("A token below the mark is rejected even if the lock service calls it current; equal tokens of the owner are accepted")
    void bothRulesMustHold(@TempDir Path dir) {
        Path file = dir.resolve("sink.db");
        SinkTable.prepare(file, "seed", SEED_MARK);
        OwnerCheckingSink sink = new OwnerCheckingSink(ConnectionSource.sqlite(file), token -> true);

        assertThat(sink.read())
                .as("read() must return the sink's value and mark, as FencedSink's does")
                .isEqualTo(new SinkState("seed", SEED_MARK));
        WriteResult below = sink.write(2, "below the mark");
        assertThat(below)
                .as("a write is accepted only if token >= mark AND the token is current: token 2 is below the mark 3, so "
                        + "it must be rejected whatever the lock service says, and a rejection returns the unchanged state")
                .isEqualTo(new WriteResult(false, SEED_MARK, "seed"));
        WriteResult equal = sink.write(SEED_MARK, "equal to the mark");
        assertThat(equal)
                .as("token 3 equals the mark and is current: the current owner may write again, so it must be accepted")
                .isEqualTo(new WriteResult(true, SEED_MARK, "equal to the mark"));
        SinkTable.set(file, "raised elsewhere", 20);
        assertThat(sink.write(15, "under a raised mark").accepted())
                .as("the database's mark is 20, so token 15 must be rejected: the mark lives in SQLite, not in a Java field")
                .isFalse();

        Path other = dir.resolve("not-current.db");
        SinkTable.prepare(other, "seed", SEED_MARK);
        WriteResult notCurrent = new OwnerCheckingSink(ConnectionSource.sqlite(other), token -> false).write(8, "not current");
        assertThat(notCurrent)
                .as("token 8 is above the mark but not the current holder's: it must be rejected, and a rejection returns "
                        + "the unchanged state")
                .isEqualTo(new WriteResult(false, SEED_MARK, "seed"));
        assertThat(SinkTable.read(other)).as("a rejected write changes nothing").isEqualTo(new SinkState("seed", SEED_MARK));
    }
}
