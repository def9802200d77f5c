package fencing.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import fencing.grading.Backstop;
import fencing.grading.Graded;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Part 4 on real SQLite files: fencing keeps stale owners out, request ids keep retries from repeating their effect. */
@DisplayName("Part 4: IdempotentLedger applies each request once")
class LedgerGradedTests {

    @Test
    @Graded(points = 3, tags = {"extension", "idempotency"})
    @DisplayName("A retried request is applied once, and returns its first verdict with duplicate set")
    void retriedRequestIsAppliedOnceWithItsFirstVerdict(@TempDir Path dir) {
        Path file = dir.resolve("ledger.db");
        IdempotentLedger ledger = new IdempotentLedger(ConnectionSource.sqlite(file));

        RequestResult first = ledger.add(4, "r1", 10);
        RequestResult retry = ledger.add(4, "r1", 10);
        RequestResult retryOtherwise = ledger.add(6, "r1", 99);

        assertThat(first).as("request r1 (token 4, +10) on a new ledger must be accepted: total 10, mark 4")
                .isEqualTo(new RequestResult(true, false, 4, 10));
        assertThat(retry)
                .as("equal-token retries may still repeat effects under fencing alone; the ledger must apply r1 once: its "
                        + "retry returns the recorded verdict with duplicate = true and changes nothing")
                .isEqualTo(new RequestResult(true, true, 4, 10));
        assertThat(retryOtherwise)
                .as("a request is known by its id alone: a retry of r1 with token 6 and +99 is still a duplicate, and "
                        + "changes nothing (total 10, mark 4)")
                .isEqualTo(new RequestResult(true, true, 4, 10));

        RequestResult r2 = ledger.add(6, "r2", 1);
        RequestResult r1Again = ledger.add(4, "r1", 10);
        RequestResult stale = ledger.add(2, "r3", 5);
        RequestResult staleRetried = ledger.add(9, "r3", 5);
        assertThat(r2).as("request r2 (token 6, +1) must be accepted: total 11, mark 6")
                .isEqualTo(new RequestResult(true, false, 6, 11));
        assertThat(r1Again).as("a duplicate reports the current mark and total (6 and 11), with r1's verdict")
                .isEqualTo(new RequestResult(true, true, 6, 11));
        assertThat(stale).as("request r3 with token 2 is below the mark 6, so it must be rejected")
                .isEqualTo(new RequestResult(false, false, 6, 11));
        assertThat(staleRetried)
                .as("r3 was rejected; its retry, even with a fresh token 9, is a duplicate that returns the recorded "
                        + "verdict (rejected) and changes nothing")
                .isEqualTo(new RequestResult(false, true, 6, 11));
        assertThat(LedgerTable.requests(file))
                .as("ledger_requests must record each request id once, with its token and verdict")
                .containsExactly(LedgerTable.request("r1", 4, true), LedgerTable.request("r2", 6, true),
                        LedgerTable.request("r3", 2, false));
        assertThat(LedgerTable.read(file)).as("ledger_state after r1, r2 and their retries")
                .isEqualTo(new LedgerTable.State(11, 6));
    }

    @Test
    @Graded(points = 2, tags = {"extension", "idempotency"})
    @DisplayName("Two different requests with equal tokens are both applied")
    void requestsWithEqualTokensAreBothApplied(@TempDir Path dir) {
        IdempotentLedger ledger = new IdempotentLedger(ConnectionSource.sqlite(dir.resolve("ledger.db")));

        RequestResult one = ledger.add(5, "one", 1);
        RequestResult two = ledger.add(5, "two", 2);

        assertThat(List.of(one, two))
                .as("the same owner (token 5) may make several requests: fencing accepts equal tokens, and two different "
                        + "ids are two operations, so both must be applied")
                .containsExactly(new RequestResult(true, false, 5, 1), new RequestResult(true, false, 5, 3));
        assertThat(ledger.total()).as("total() after +1 and +2").isEqualTo(3);
    }

    @Test
    @Graded(points = 2, tags = {"extension", "idempotency"})
    @DisplayName("A stale token with a fresh request id is rejected: deduplication does not replace fencing")
    void staleTokenWithAFreshIdIsRejected(@TempDir Path dir) {
        Path file = dir.resolve("ledger.db");
        IdempotentLedger ledger = new IdempotentLedger(ConnectionSource.sqlite(file));
        ledger.add(8, "new owner", 5);

        RequestResult stale = ledger.add(7, "old owner", 100);

        assertThat(stale)
                .as("generation freshness and operation deduplication protect different invariants: a new id does not make "
                        + "token 7 fresh after token 8, so the request must be rejected and the total stay 5")
                .isEqualTo(new RequestResult(false, false, 8, 5));
        assertThat(LedgerTable.read(file)).as("a rejected request changes neither total nor mark")
                .isEqualTo(new LedgerTable.State(5, 8));
        assertThat(LedgerTable.requests(file)).as("a rejected request is recorded with its verdict")
                .contains(LedgerTable.request("old owner", 7, false));
    }

    @Test
    @Graded(points = 3, tags = {"extension", "idempotency"})
    @DisplayName("Two retries of one request racing on two connections are applied once")
    void racingRetriesOfOneRequestAreAppliedOnce(@TempDir Path dir) throws Exception {
        Path alone = dir.resolve("alone.db");
        LedgerTable.prepare(alone);
        List<String> statements = Collections.synchronizedList(new ArrayList<>());
        new IdempotentLedger(new ObservedConnections(PausedWrites.ready(alone), statements::add)).add(5, "deposit", 10);
        assertThat(statements)
                .as("a request must run its statements on connections from the ConnectionSource it is given, but it ran none")
                .isNotEmpty();

        for (int k = 1; k <= statements.size(); k++) {
            Path file = dir.resolve("held-after-" + k + ".db");
            LedgerTable.prepare(file);
            // On a line of its own: the rule and what was observed come first.
            String how = "\nretry 1 was held after its statement " + k + " of " + statements + " while retry 2 ran on "
                    + "another connection";
            List<Object> results = raceTwoRetries(file, k);

            assertThat(results)
                    .as("every request must end with a verdict, never an exception, even when a retry competes (look up the"
                            + " id, fence, apply and record in one BEGIN IMMEDIATE transaction): %s; the two retries returned %s",
                            how, results.stream().map(result -> result instanceof String failure
                                    ? SinkRules.explained(failure) : result).toList())
                    .allMatch(result -> result instanceof RequestResult);
            RequestResult one = (RequestResult) results.get(0);
            RequestResult two = (RequestResult) results.get(1);
            assertThat(LedgerTable.read(file).total())
                    .as("two retries of one request (+10) must be applied once, whatever the interleaving: %s; they "
                            + "returned %s and %s", how, one, two)
                    .isEqualTo(10);
            assertThat(List.of(one.duplicate(), two.duplicate()))
                    .as("exactly one of two retries of one request is the first, the other a duplicate: %s", how)
                    .containsExactlyInAnyOrder(false, true);
            assertThat(List.of(one.accepted(), two.accepted()))
                    .as("both retries must report the request's verdict, accepted (token 5 on a new ledger): %s", how)
                    .containsExactly(true, true);
        }
    }

    /** Runs retry 1 held after its statement {@code k} and retry 2 meanwhile; returns each one's result or failure. */
    private static List<Object> raceTwoRetries(Path file, int k) throws Exception {
        AtomicReference<Thread> firstThread = new AtomicReference<>();
        AtomicInteger count = new AtomicInteger();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        IdempotentLedger first = new IdempotentLedger(new ObservedConnections(PausedWrites.ready(file), call -> {
            if (Thread.currentThread() == firstThread.get() && count.incrementAndGet() == k) {
                held.countDown();
                try {
                    Backstop.of(PausedWrites.STEP_LIMIT).await(resume);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }));
        IsolatedSinks.Ledger second = IsolatedSinks.newLedger(PausedWrites.ready(file));
        CompletableFuture<Object> one = new CompletableFuture<>();
        Thread retry1 = PausedWrites.daemon("retry 1", () -> one.complete(outcome(() -> first.add(5, "deposit", 10))));
        firstThread.set(retry1);
        retry1.start();
        Backstop.of(PausedWrites.STEP_LIMIT).await(held);
        boolean locked = SinkTable.writeLockHeld(file);
        CompletableFuture<Object> two = new CompletableFuture<>();
        // Retry 2 goes until it waits for retry 1's write lock, as it should, or ends.
        PausedWrites.secondGoesAsFarAsItCan(PausedWrites.daemon("retry 2", () -> two.complete(outcome(() -> second.add(5, "deposit", 10)))),
                two, locked);
        resume.countDown();
        return List.of(Backstop.of(PausedWrites.STEP_LIMIT).get(one),
                Backstop.of(PausedWrites.STEP_LIMIT).get(two));
    }

    private static Object outcome(java.util.function.Supplier<RequestResult> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            // Kept, not dropped: the caller asserts that no retry ended this way.
            return e.toString() + (e.getCause() == null ? "" : ", caused by " + e.getCause());
        }
    }

    @Test
    @Graded(points = 2, tags = {"extension", "idempotency"})
    @DisplayName("The record of a request and its effect are committed in one transaction: both or neither")
    void recordAndEffectCommitTogether(@TempDir Path dir) {
        Path file = dir.resolve("ledger.db");
        LedgerTable.prepare(file);
        IdempotentLedger ledger = new IdempotentLedger(ConnectionSource.sqlite(file));
        LedgerTable.execute(file, "CREATE TRIGGER grader_record_fails BEFORE INSERT ON ledger_requests "
                + "WHEN NEW.request_id = 'record fails' BEGIN SELECT RAISE(ABORT, 'the disk is full'); END");
        LedgerTable.execute(file, "CREATE TRIGGER grader_effect_fails BEFORE UPDATE ON ledger_state "
                + "WHEN NEW.total = 777 BEGIN SELECT RAISE(ABORT, 'the disk is full'); END");

        ignoringFailure(() -> ledger.add(5, "record fails", 10));
        assertThat(LedgerTable.read(file))
                .as("recording request \"record fails\" failed, so its effect (+10, mark 5) must not be committed either: "
                        + "the record of a request and its effect commit in one transaction")
                .isEqualTo(new LedgerTable.State(0, 0));

        ignoringFailure(() -> ledger.add(5, "effect fails", 777));
        assertThat(LedgerTable.requests(file))
                .as("applying request \"effect fails\" (+777) failed, so it must not be recorded either: a retry would "
                        + "be taken for a duplicate and the effect lost")
                .isEmpty();

        assertThat(ledger.add(5, "next", 1))
                .as("after the failed requests were rolled back, the ledger must go on: request \"next\" (+1) is accepted")
                .isEqualTo(new RequestResult(true, false, 5, 1));
    }

    private static void ignoringFailure(Runnable request) {
        try {
            request.run();
        } catch (RuntimeException expected) {
            // The database refused on purpose; what matters is what it holds afterwards, checked by the caller.
        }
    }

    @Test
    @Graded(points = 2, tags = {"extension", "idempotency"})
    @DisplayName("A ledger reopened over the same file keeps its total, its mark and the requests it has seen")
    void stateSurvivesAReopen(@TempDir Path dir) {
        Path file = dir.resolve("ledger.db");
        IdempotentLedger before = new IdempotentLedger(ConnectionSource.sqlite(file));
        before.add(4, "r1", 10);

        IdempotentLedger reopened = new IdempotentLedger(ConnectionSource.sqlite(file));

        assertThat(reopened.total()).as("a ledger reopened over the same file must read the total 10 written before").isEqualTo(10);
        assertThat(reopened.add(4, "r1", 10))
                .as("after a restart, a retry of r1 must still be a duplicate: the requests seen live in SQLite")
                .isEqualTo(new RequestResult(true, true, 4, 10));
        assertThat(reopened.add(3, "r2", 1))
                .as("after a restart, token 3 must still be rejected: the mark 4 lives in SQLite")
                .isEqualTo(new RequestResult(false, false, 4, 10));
    }

    @Test
    @Graded(points = 2, tags = {"extension", "idempotency"})
    @DisplayName("A null or blank request id, or a total that would overflow, is refused and changes nothing")
    void badRequestsAreRefusedAndChangeNothing(@TempDir Path dir) {
        Path file = dir.resolve("ledger.db");
        IdempotentLedger ledger = new IdempotentLedger(ConnectionSource.sqlite(file));
        ledger.add(4, "r1", 10);

        for (String blank : new String[] {null, "", "   ", "\t\n"}) {
            // The description goes first: assertThatThrownBy would fail before .as(...) when nothing is thrown.
            assertThatExceptionOfType(IllegalArgumentException.class)
                    .as("a request without an id cannot be applied once: add(5, %s, 1) must throw IllegalArgumentException",
                            blank == null ? "null" : "\"" + blank.replace("\t", "\\t").replace("\n", "\\n") + "\"")
                    .isThrownBy(() -> ledger.add(5, blank, 1));
        }
        assertThatExceptionOfType(ArithmeticException.class)
                .as("adding Long.MAX_VALUE to the total 10 would overflow: add must throw ArithmeticException")
                .isThrownBy(() -> ledger.add(5, "too much", Long.MAX_VALUE));

        assertThat(LedgerTable.read(file))
                .as("refused requests change nothing: total 10, mark 4")
                .isEqualTo(new LedgerTable.State(10, 4));
        assertThat(LedgerTable.requests(file))
                .as("refused requests are not recorded")
                .containsExactly(LedgerTable.request("r1", 4, true));
    }
}
