package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Backstop;
import fencing.grading.Graded;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("LockService: a new, larger fencing token on every grant")
class LockServiceGradedTests {

    @Test
    @Graded(points = 1, tags = "monotonic-tokens")
    @DisplayName("The first grant of a new lock service gets token 1")
    void firstGrantGetsTokenOne() {
        long token = new LockService().acquire("A");

        assertThat(token)
                .as("the first acquire on a new lock service must return token 1, but it returned %d", token)
                .isEqualTo(1L);
    }

    @Test
    @Graded(points = 2, tags = "monotonic-tokens")
    @DisplayName("Grants to different clients count up 1, 2, 3, ... with no repeat and no restart")
    void tokensCountUpAcrossClients() {
        LockService locks = new LockService();
        String[] clients = {"A", "B", "C", "A", "A", "B", "D", "C", "B", "A"};
        Random random = new Random(42);
        List<String> asked = new ArrayList<>();
        List<Long> tokens = new ArrayList<>();

        for (int i = 0; i < 60; i++) {
            String client = i < clients.length ? clients[i] : clients[random.nextInt(clients.length)];
            asked.add(client);
            tokens.add(locks.acquire(client));
            assertThat(tokens.get(i))
                    .as("grant number %d (to %s) must get token %d: every grant is a new lease, from anyone;"
                            + " clients asked %s and got tokens %s", i + 1, client, i + 1, asked, tokens)
                    .isEqualTo(i + 1L);
        }
    }

    @Test
    @Graded(points = 1, tags = "monotonic-tokens")
    @DisplayName("The same client asking again gets a new, larger token every time")
    void sameClientGetsNewTokenEveryTime() {
        LockService locks = new LockService();
        List<Long> tokens = new ArrayList<>();

        for (int i = 0; i < 5; i++) {
            tokens.add(locks.acquire("A"));
        }

        assertThat(tokens)
                .as("A acquires 5 times: each acquire is a new grant and must get the next token, but A got %s",
                        tokens)
                .containsExactly(1L, 2L, 3L, 4L, 5L);
    }

    @Test
    @Graded(points = 1, tags = "monotonic-tokens")
    @DisplayName("Each lock service counts its own grants from 1")
    void eachLockServiceCountsFromOne() {
        LockService first = new LockService();
        LockService second = new LockService();

        long a = first.acquire("A");
        long b = first.acquire("B");
        long c = second.acquire("C");
        long d = first.acquire("D");

        assertThat(List.of(a, b, c, d))
                .as("two grants on one lock service, one on a second new service, then one more on the first:"
                        + " each service counts its own grants, so the tokens must be 1, 2, 1, 3, but they were"
                        + " %d, %d, %d, %d", a, b, c, d)
                .containsExactly(1L, 2L, 1L, 3L);
    }

    @Test
    @Graded(points = 3, tags = "monotonic-tokens")
    @DisplayName("Two threads acquiring at once never get the same token, whichever step of acquire one is held at")
    void concurrentGrantsNeverShareAToken() throws Exception {
        SteppedLockServices.Copy alone = SteppedLockServices.newLockService();
        SteppedLockServices.Hold counted = SteppedLockServices.count(Thread.currentThread());
        alone.acquire("A");
        counted.release();
        int steps = counted.steps();

        for (int k = 1; k <= steps; k++) {
            SteppedLockServices.Copy locks = SteppedLockServices.newLockService();
            Race race = Race.run(locks, k);
            long next = locks.acquire("C");
            String verdict = race.verdict(next);
            assertThat(verdict)
                    .as("rule: tokens grow with every grant and no token is ever given twice, even when two threads acquire"
                            + " at once; observed: %s%non a new lock service, thread A was held after step %d of %d of its"
                            + " acquire (%s) while thread B acquired %s.%nMake the read-and-increment of the counter"
                            + " atomic: mark acquire synchronized, or keep the counter in an AtomicLong (incrementAndGet)",
                            verdict, k, steps, race.heldAt, race.bWaited ? "and had to wait for A's lock" : "to its end")
                    .isEmpty();
        }
    }

    /** Thread A acquiring, held after its step {@code k}, while thread B acquires on the same service. */
    private record Race(long a, long b, String heldAt, boolean bWaited) {

        /** Says what went wrong, given the token of the grant after the race, or returns "" if nothing did. */
        String verdict(long next) {
            if (a == b) {
                return "A and B both got token " + a;
            }
            if (Math.min(a, b) != 1 || Math.max(a, b) != 2) {
                return "A got token " + a + " and B token " + b + ", not 1 and 2";
            }
            return next == 3 ? "" : "the grant after them got token " + next + ", not 3: a grant was lost";
        }

        static Race run(SteppedLockServices.Copy locks, int k) throws Exception {
            CompletableFuture<Long> a = new CompletableFuture<>();
            CompletableFuture<Long> b = new CompletableFuture<>();
            CountDownLatch aDone = new CountDownLatch(1);
            Thread threadA = client("A", locks, a, aDone);
            Thread threadB = client("B", locks, b, new CountDownLatch(1));
            SteppedLockServices.Hold hold = SteppedLockServices.holdAfter(threadA, k);
            try {
                threadA.start();
                boolean held = hold.awaitHeld(aDone);
                String heldAt = held ? locks.step(hold.heldAt()) : "it ended before that step";
                threadB.start();
                boolean waited = held && waitsFor(b, threadB, threadA);
                hold.release();
                return new Race(Backstop.of(SteppedLockServices.STEP_LIMIT).get(a),
                        Backstop.of(SteppedLockServices.STEP_LIMIT).get(b), heldAt, waited);
            } finally {
                hold.release();
            }
        }

        private static Thread client(String name, SteppedLockServices.Copy locks, CompletableFuture<Long> token,
                                     CountDownLatch done) {
            Thread thread = new Thread(() -> {
                try {
                    token.complete(locks.acquire(name));
                } catch (RuntimeException | Error e) {
                    token.completeExceptionally(e);
                } finally {
                    done.countDown();
                }
            }, "client " + name);
            thread.setDaemon(true);
            return thread;
        }

        /**
         * Returns whether B, while A is held, waits for a lock that A holds, rather than running to its end.
         *
         * <p>Decided by the JVM's own record of which thread owns the lock B waits for, not by a timer; a B that neither
         * ends nor waits on a lock (a spin on a flag A set) is given the step limit, and then A goes on.
         */
        private static boolean waitsFor(CompletableFuture<Long> b, Thread threadB, Thread a) throws InterruptedException {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            Backstop limit = Backstop.of(SteppedLockServices.STEP_LIMIT);
            while (!b.isDone() && !limit.passed()) {
                ThreadInfo info = threads.getThreadInfo(threadB.getId());
                if (info != null && info.getLockOwnerId() == a.getId()) {
                    return true;
                }
                Thread.sleep(1);
            }
            return !b.isDone();
        }
    }
}
