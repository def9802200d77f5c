package fencing.sink;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("FencedSink: the comparison and the write happen in one database transaction")
class SinkTransactionTests {

    private static final long SEED_MARK = 3;
    private static final long LOW = 5;
    private static final long HIGH = 9;
    private static final String LOW_VALUE = "writer 1 (token 5)";
    private static final String HIGH_VALUE = "writer 2 (token 9)";

    private static final int WRITERS = 6;
    private static final int WRITES_EACH = 4;
    private static final long TOKEN_SEED = 20_240_607L;

    @Test
    @Graded(points = 3, tags = "comparison-in-transaction")
    @DisplayName("A writer paused after any of its statements never gets its lower token past a higher one")
    void pausedLowerWriterNeverOverwritesAHigherToken(@TempDir Path dir) {
        Path alone = dir.resolve("alone.db");
        SinkTable.prepare(alone, "seed", SEED_MARK);
        List<String> statements = PausedWrites.statementsOfOneWrite(alone, LOW, LOW_VALUE);
        assertThat(statements)
                .as("a write must run its statements on connections from the ConnectionSource it is given: "
                        + "the high-water mark lives in that database, but this write ran none")
                .isNotEmpty();

        for (int k = 0; k <= statements.size(); k++) {
            Path file = dir.resolve("paused-after-" + k + ".db");
            SinkTable.prepare(file, "seed", SEED_MARK);
            SinkTable.installCommitLog(file);

            Optional<PausedWrites.Outcome> run = PausedWrites.run(file, k, LOW, LOW_VALUE, HIGH, HIGH_VALUE);

            assertThat(run)
                    .as("alone, a write with token 5 ran %d statements %s; run again, it ended before statement %d: "
                            + "a write must do the same work every time", statements.size(), statements, k)
                    .isPresent();
            checkPausedRun(run.get());
        }
    }

    private static void checkPausedRun(PausedWrites.Outcome outcome) {
        String how = outcome.interleaving() + "; " + SinkRules.timeline(outcome, LOW, HIGH) + "; " + SinkRules.TRANSACTION_RULE;
        assertThat(SinkRules.explained(outcome.first().failure()))
                .as("every write must end accepted or rejected, never with an exception, even when another writer "
                        + "competes: %s; writer 1 (token 5) threw", how)
                .isNull();
        assertThat(SinkRules.explained(outcome.second().failure()))
                .as("every write must end accepted or rejected, never with an exception, even when another writer "
                        + "competes: %s; writer 2 (token 9) threw", how)
                .isNull();
        assertThat(outcome.second().accepted())
                .as("a write with token 9, the highest token ever offered (the mark was %d), must be accepted: %s; "
                        + "writer 2 got %s", SEED_MARK, how, outcome.second().result())
                .isTrue();

        List<Long> marks = outcome.log().stream().map(SinkTable.Change::highWaterMark).collect(Collectors.toList());
        assertThat(marks)
                .as("the high-water mark must never go down: %s; the marks, in the order the database committed "
                        + "them, were %s", how, marks)
                .isSorted();
        assertThat(outcome.after())
                .as("after both writes the sink must hold the highest accepted write, token 9: %s; the database holds %s",
                        how, outcome.after())
                .isEqualTo(new SinkState(HIGH_VALUE, HIGH));

        List<String> values = outcome.log().stream().map(SinkTable.Change::value).collect(Collectors.toList());
        if (outcome.first().accepted()) {
            assertThat(values.indexOf(LOW_VALUE))
                    .as("writer 1 was told its token 5 was accepted, so its write must have been committed before "
                            + "token 9's: a lower token must never be accepted after a higher one has committed; %s; "
                            + "the values, in commit order, were %s", how, values)
                    .isBetween(0, values.indexOf(HIGH_VALUE) - 1);
        } else {
            assertThat(values)
                    .as("writer 1 was told its token 5 was rejected, so its value must never have been stored: %s; "
                            + "the values, in commit order, were %s", how, values)
                    .doesNotContain(LOW_VALUE);
        }
    }

    @Test
    @Graded(points = 2, tags = "comparison-in-transaction")
    @DisplayName("Many writers at once: each gets a verdict, and the highest accepted write wins")
    void concurrentWritersEachGetAVerdictAndTheHighestAcceptedWins(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("concurrent.db");
        SinkTable.prepare(file, null, 0);
        SinkTable.installCommitLog(file);
        List<Long> tokens = LongStream.rangeClosed(1, (long) WRITERS * WRITES_EACH).boxed().collect(Collectors.toList());
        Collections.shuffle(tokens, new Random(TOKEN_SEED));

        // Writer 0 uses the submission's class as loaded; the others each load their own copy, as separate processes would.
        List<Sink> sinks = IntStream.range(0, WRITERS)
                .mapToObj(i -> i == 0 ? new FencedSink(PausedWrites.ready(file)) : IsolatedSinks.newFencedSink(PausedWrites.ready(file)))
                .collect(Collectors.toList());
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<List<Attempt>>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            Sink sink = sinks.get(w);
            List<Long> mine = tokens.subList(w * WRITES_EACH, (w + 1) * WRITES_EACH);
            CompletableFuture<List<Attempt>> done = new CompletableFuture<>();
            writers.add(done);
            PausedWrites.daemon("writer " + w, () -> {
                List<Attempt> attempts = new ArrayList<>();
                awaitStart(start);
                for (long token : mine) {
                    String value = "token " + token;
                    attempts.add(new Attempt(token, value, PausedWrites.Call.of(() -> sink.write(token, value))));
                }
                done.complete(attempts);
            }).start();
        }
        start.countDown();
        List<Attempt> attempts = new ArrayList<>();
        for (CompletableFuture<List<Attempt>> writer : writers) {
            attempts.addAll(writer.get(8, TimeUnit.SECONDS));
        }

        List<String> errors = attempts.stream().filter(a -> a.call().error() != null)
                .map(a -> "token " + a.token() + ": " + SinkRules.explained(a.call().failure())).collect(Collectors.toList());
        assertThat(errors)
                .as("every write must end accepted or rejected, never with an exception, with %d writers at once "
                        + "(tokens %s); %s; these threw", WRITERS, tokens, SinkRules.TRANSACTION_RULE)
                .isEmpty();
        for (Attempt attempt : attempts) {
            WriteResult result = attempt.call().result();
            assertThat(result).as("write(%d) must return its verdict, not null", attempt.token()).isNotNull();
            if (!result.accepted()) {
                assertThat(result.highWaterMark())
                        .as("a write with token %d may only be rejected by a higher mark, but the state after it shows mark %d",
                                attempt.token(), result.highWaterMark())
                        .isGreaterThan(attempt.token());
            }
        }

        List<SinkTable.Change> log = SinkTable.commitLog(file);
        List<Long> marks = log.stream().map(SinkTable.Change::highWaterMark).collect(Collectors.toList());
        assertThat(marks)
                .as("accepted tokens, in the order the database committed them, must never decrease (%s); with %d"
                        + " writers at once the marks went %s", SinkRules.TRANSACTION_RULE, WRITERS, marks)
                .isSorted();
        List<Attempt> accepted = attempts.stream().filter(a -> a.call().accepted()).collect(Collectors.toList());
        for (Attempt attempt : accepted) {
            assertThat(log)
                    .as("write(%d, \"%s\") was told it was accepted, so the database must have committed it with mark %d; "
                            + "the commit log is %s", attempt.token(), attempt.value(), attempt.token(), log)
                    .anyMatch(change -> attempt.value().equals(change.value()) && change.highWaterMark() == attempt.token());
        }
        long highest = tokens.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(accepted)
                .as("token %d is the highest offered, so it beats every mark: some write must be accepted", highest)
                .isNotEmpty();
        Attempt best = accepted.stream().max(Comparator.comparingLong(Attempt::token)).orElseThrow();
        assertThat(best.token())
                .as("token %d is the highest offered, so it beats every mark and must be accepted", highest)
                .isEqualTo(highest);
        assertThat(SinkTable.read(file))
                .as("after all writes the sink must hold the highest accepted write (token %d)", best.token())
                .isEqualTo(new SinkState(best.value(), best.token()));
    }

    private record Attempt(long token, String value, PausedWrites.Call call) {
    }

    private static void awaitStart(CountDownLatch start) {
        try {
            start.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("a writer was interrupted before the start", e);
        }
    }
}
