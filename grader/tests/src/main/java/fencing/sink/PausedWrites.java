package fencing.sink;

import fencing.grading.Backstop;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Two writers on one SQLite file, the first one held still right after one of its statements.
 *
 * <p>Writer 1 runs the submission's {@code FencedSink} through {@link ObservedConnections}; after
 * its statement number {@code k} it stops. Writer 2 then writes with a higher token through a second
 * {@code FencedSink} whose class is loaded afresh ({@link IsolatedSinks}), as a second sink process
 * would. How far writer 2 gets is decided by the database, not by luck: if writer 1 holds SQLite's
 * write lock, writer 2 cannot commit before writer 1 does, so it runs until it waits for that lock
 * ({@link LockWaits}: a correct sink waits in SQLite's busy handler) or ends; otherwise nothing in the
 * database can stop writer 2, so it runs to its end before writer 1 goes on.
 */
final class PausedWrites {

    /** How long writer 2 may take when nothing in the database holds it back. */
    static final Duration FREE_RUN_LIMIT = Duration.ofSeconds(3);

    /** How long any one step may take before the grader gives up on it. */
    static final Duration STEP_LIMIT = Duration.ofSeconds(4);

    /** One call to {@code write}: its result, or what it threw. */
    record Call(WriteResult result, Throwable error) {

        static Call of(Supplier<WriteResult> write) {
            try {
                return new Call(write.get(), null);
            } catch (RuntimeException | Error e) {
                // Kept, not dropped: the caller asserts that no write ended this way.
                return new Call(null, e);
            }
        }

        boolean accepted() {
            return result != null && result.accepted();
        }

        /** Returns what the call threw, with every cause, or {@code null} if it returned. */
        String failure() {
            if (error == null) {
                return null;
            }
            StringBuilder text = new StringBuilder(error.toString());
            for (Throwable cause = error.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
                text.append(", caused by ").append(cause);
            }
            return text.toString();
        }
    }

    /** What happened when writer 1 was paused after its statement {@code pausePoint}. */
    record Outcome(int pausePoint, String pausedAfter, boolean writeLockHeld, boolean secondFinishedMeanwhile,
                   Call first, Call second, SinkState after, List<SinkTable.Change> log) {

        /** Says, in words, how the two writes were interleaved. */
        String interleaving() {
            if (pausePoint == 0) {
                return "writer 1 was held up before its first statement, and writer 2 ran to its end meanwhile";
            }
            if (pausedAfter == null) {
                return "writer 1 ended before its statement " + pausePoint + ", and writer 2 ran after it";
            }
            return String.format("writer 1 paused after its statement %d (%s)%s, and writer 2 %s",
                    pausePoint, pausedAfter,
                    writeLockHeld ? " holding the write lock" : " without holding the write lock",
                    secondFinishedMeanwhile ? "ran to its end meanwhile" : "had to wait for it");
        }
    }

    private PausedWrites() {
    }

    /** Returns the statements one write runs, in order, when its sink is alone on {@code file}. */
    static List<String> statementsOfOneWrite(Path file, long token, String value) {
        List<String> statements = Collections.synchronizedList(new ArrayList<>());
        Sink sink = new FencedSink(new ObservedConnections(ready(file), statements::add));
        sink.write(token, value);
        return List.copyOf(statements);
    }

    /**
     * Runs writer 1 ({@code lowToken}) paused after its statement {@code pausePoint}, and writer 2
     * ({@code highToken}) meanwhile; returns empty if writer 1 ended before reaching that statement.
     *
     * <p>Pause point 0 stands for a writer 1 held up before its first statement: writer 2 runs to its
     * end before writer 1 starts, as when a paused owner wakes up after the next owner has written.
     */
    static Optional<Outcome> run(Path file, int pausePoint, long lowToken, String lowValue,
                                 long highToken, String highValue) {
        Relay relay = new Relay();
        Sink first = new FencedSink(new ObservedConnections(ready(file), relay));
        Sink second = IsolatedSinks.newFencedSink(ready(file));
        Outcome outcome = overlap(file, pausePoint, relay, first, lowToken, lowValue, second, highToken, highValue);
        return outcome.pausedAfter() == null && pausePoint > 0 ? Optional.empty() : Optional.of(outcome);
    }

    /**
     * Runs {@code first}, whose statements reach {@code relay}, paused after its statement {@code pausePoint}, and
     * {@code second} meanwhile, as {@link #run} does; if {@code first} ends before that statement, {@code second} runs
     * after it and the outcome's {@code pausedAfter} is {@code null}.
     */
    static Outcome overlap(Path file, int pausePoint, Relay relay, Sink first, long firstToken, String firstValue,
                           Sink second, long secondToken, String secondValue) {
        if (pausePoint == 0) {
            // Paused before its first statement: writer 2 has all the time it needs, then writer 1 comes late.
            Call two = Call.of(() -> second.write(secondToken, secondValue));
            Call one = Call.of(() -> first.write(firstToken, firstValue));
            return new Outcome(0, "nothing yet", false, true, one, two, SinkTable.read(file), SinkTable.commitLog(file));
        }
        AtomicReference<Thread> firstThread = new AtomicReference<>();
        AtomicInteger statements = new AtomicInteger();
        AtomicReference<String> pausedAfter = new AtomicReference<>();
        CountDownLatch paused = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        relay.set(call -> {
            if (Thread.currentThread() == firstThread.get() && statements.incrementAndGet() == pausePoint) {
                pausedAfter.set(call);
                paused.countDown();
                awaitResume(resume);
            }
        });
        try {
            CompletableFuture<Call> firstCall = new CompletableFuture<>();
            Thread writer1 = daemon("writer 1 (token " + firstToken + ")",
                    () -> firstCall.complete(Call.of(() -> first.write(firstToken, firstValue))));
            firstThread.set(writer1);
            writer1.start();
            if (!awaitPauseOrEnd(paused, firstCall)) {
                Call one = await(firstCall, "writer 1");
                Call two = Call.of(() -> second.write(secondToken, secondValue));
                return new Outcome(pausePoint, null, false, false, one, two, SinkTable.read(file), SinkTable.commitLog(file));
            }

            boolean locked = SinkTable.writeLockHeld(file);
            CompletableFuture<Call> secondCall = new CompletableFuture<>();
            Thread writer2 = daemon("writer 2 (token " + secondToken + ")",
                    () -> secondCall.complete(Call.of(() -> second.write(secondToken, secondValue))));
            boolean finishedMeanwhile = secondGoesAsFarAsItCan(writer2, secondCall, locked);
            resume.countDown();

            Call one = await(firstCall, "writer 1");
            Call two = await(secondCall, "writer 2");
            return new Outcome(pausePoint, pausedAfter.get(), locked, finishedMeanwhile,
                    one, two, SinkTable.read(file), SinkTable.commitLog(file));
        } finally {
            relay.set(Relay.NONE);
        }
    }

    /** Passes each statement on to the listener of the moment, so that a sink built once can be paused in any write. */
    static final class Relay implements ObservedConnections.Listener {

        static final ObservedConnections.Listener NONE = call -> { };

        private volatile ObservedConnections.Listener current = NONE;

        void set(ObservedConnections.Listener listener) {
            current = listener;
        }

        @Override
        public void afterStatement(String call) {
            current.afterStatement(call);
        }
    }

    /**
     * Returns a new source for {@code file} that has already written the schema, and whose connections tell when they
     * wait for a lock ({@link LockWaits}).
     *
     * <p>A new source writes the schema on its first connection; done during the run, that write would
     * queue behind the paused writer's lock and muddle what the grader sees.
     */
    static ConnectionSource ready(Path file) {
        ConnectionSource source = ConnectionSource.sqlite(file);
        try (Connection first = source.open()) {
            return new LockWaits(source);
        } catch (SQLException e) {
            throw new IllegalStateException("the grader could not open " + file, e);
        }
    }

    private static void awaitResume(CountDownLatch resume) {
        try {
            if (!Backstop.of(STEP_LIMIT).await(resume)) {
                throw new IllegalStateException("the grader did not resume writer 1 within " + STEP_LIMIT.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("writer 1 was interrupted while paused", e);
        }
    }

    private static boolean awaitPauseOrEnd(CountDownLatch paused, CompletableFuture<Call> firstCall) {
        Backstop limit = Backstop.of(STEP_LIMIT);
        try {
            while (!limit.passed()) {
                if (paused.await(5, TimeUnit.MILLISECONDS)) {
                    return true;
                }
                if (firstCall.isDone()) {
                    return paused.getCount() == 0;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for writer 1", e);
        }
        throw new IllegalStateException("writer 1 neither reached its statement nor ended within " + STEP_LIMIT.toSeconds() + " s");
    }

    /**
     * Starts {@code writer2} while writer 1 is held, and returns whether its {@code call} ended before writer 1 goes on:
     * while writer 1 holds the write lock, writer 2 goes until it waits for that lock or ends; otherwise to its end.
     */
    static boolean secondGoesAsFarAsItCan(Thread writer2, CompletableFuture<?> call, boolean locked) {
        if (locked) {
            return LockWaits.doneBeforeItWaits(writer2, call, STEP_LIMIT);
        }
        writer2.start();
        return finishesWithin(call, FREE_RUN_LIMIT);
    }

    private static boolean finishesWithin(CompletableFuture<?> call, Duration limit) {
        try {
            Backstop.of(limit).get(call);
            return true;
        } catch (TimeoutException stillRunning) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for writer 2", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("writer 2's thread failed", e.getCause());
        }
    }

    /** Waits for {@code writer}'s call once it has been let go, at most {@link #STEP_LIMIT}. */
    static Call await(CompletableFuture<Call> call, String writer) {
        try {
            return Backstop.of(STEP_LIMIT).get(call);
        } catch (TimeoutException e) {
            throw new IllegalStateException(writer + " did not end within " + STEP_LIMIT.toSeconds() + " s of being let go", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + writer, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(writer + "'s thread failed", e.getCause());
        }
    }

    static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }
}
