package fencing.sink;

import fencing.grading.Backstop;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A current owner's write to an {@code OwnerCheckingSink} held still after one of its steps, while ownership moves on.
 *
 * <p>The steps are the statements writer 1 runs and its question to the lock service, in the order it
 * makes them. After step {@code k}, the lock passes from token {@code low} to token {@code high} and
 * writer 2, the new owner, writes through a second sink whose class is loaded afresh; then writer 1
 * goes on. As in {@link PausedWrites}, writer 2 gets a short grace when writer 1 holds SQLite's write
 * lock, and all the time it needs otherwise.
 */
final class OwnerRaces {

    /** What happened when writer 1 was held after its step {@code k}. */
    record Outcome(int k, String heldAfter, boolean writeLockHeld, PausedWrites.Call first, PausedWrites.Call second,
                   SinkState after, List<SinkTable.Change> log) {

        String interleaving() {
            return String.format("writer 1 was held after its step %d (%s)%s while the lock passed to writer 2 "
                    + "and writer 2 wrote", k, heldAfter,
                    writeLockHeld ? " holding SQLite's write lock" : " without SQLite's write lock");
        }
    }

    /** The lock service as the grader plays it: one current token, which the race moves on. */
    static final class Owners implements OwnerCheck {

        private final AtomicLong current;
        private final Runnable onQuestion;

        Owners(long current, Runnable onQuestion) {
            this.current = new AtomicLong(current);
            this.onQuestion = onQuestion;
        }

        void passTo(long token) {
            current.set(token);
        }

        @Override
        public boolean isCurrent(long token) {
            boolean answer = token == current.get();
            onQuestion.run();
            return answer;
        }
    }

    private OwnerRaces() {
    }

    /** Returns the steps of one write of {@code token} when it is the current owner's, alone on {@code file}. */
    static List<String> stepsOfOneWrite(Path file, long token, String value) {
        List<String> steps = Collections.synchronizedList(new ArrayList<>());
        Owners owners = new Owners(token, () -> steps.add("isCurrent"));
        new OwnerCheckingSink(new ObservedConnections(PausedWrites.ready(file), steps::add), owners).write(token, value);
        return List.copyOf(steps);
    }

    /** Runs the race with writer 1 held after step {@code k}; empty if writer 1 ended before it. */
    static Optional<Outcome> run(Path file, int k, long low, String lowValue, long high, String highValue) throws InterruptedException {
        AtomicReference<Thread> firstThread = new AtomicReference<>();
        AtomicInteger steps = new AtomicInteger();
        AtomicReference<String> heldAfter = new AtomicReference<>();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        AtomicReference<Owners> owners = new AtomicReference<>();
        java.util.function.Consumer<String> step = name -> {
            if (Thread.currentThread() == firstThread.get() && steps.incrementAndGet() == k) {
                heldAfter.set(name);
                held.countDown();
                try {
                    Backstop.of(PausedWrites.STEP_LIMIT).await(resume);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        owners.set(new Owners(low, () -> step.accept("isCurrent")));
        Sink first = new OwnerCheckingSink(new ObservedConnections(PausedWrites.ready(file), step::accept), owners.get());
        Sink second = IsolatedSinks.newOwnerCheckingSink(PausedWrites.ready(file), owners.get());

        CompletableFuture<PausedWrites.Call> firstCall = new CompletableFuture<>();
        Thread writer1 = PausedWrites.daemon("writer 1 (token " + low + ")",
                () -> firstCall.complete(PausedWrites.Call.of(() -> first.write(low, lowValue))));
        firstThread.set(writer1);
        writer1.start();
        Backstop limit = Backstop.of(PausedWrites.STEP_LIMIT);
        while (!held.await(5, TimeUnit.MILLISECONDS)) {
            if (firstCall.isDone() || limit.passed()) {
                return Optional.empty();
            }
        }
        boolean locked = SinkTable.writeLockHeld(file);
        owners.get().passTo(high);
        CompletableFuture<PausedWrites.Call> secondCall = new CompletableFuture<>();
        // Writer 2 goes until it waits for writer 1's write lock, as it should, or ends; its verdict is collected below.
        PausedWrites.secondGoesAsFarAsItCan(PausedWrites.daemon("writer 2 (token " + high + ")",
                () -> secondCall.complete(PausedWrites.Call.of(() -> second.write(high, highValue)))), secondCall, locked);
        resume.countDown();
        PausedWrites.Call one = PausedWrites.await(firstCall, "writer 1");
        PausedWrites.Call two = PausedWrites.await(secondCall, "writer 2");
        return Optional.of(new Outcome(k, heldAfter.get(), locked, one, two, SinkTable.read(file), SinkTable.commitLog(file)));
    }
}
