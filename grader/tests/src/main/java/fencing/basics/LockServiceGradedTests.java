package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("LockService: a new, larger fencing token on every grant")
class LockServiceGradedTests {

    /** More threads than cores, so that grants also race when a thread is preempted in the middle of one. */
    private static final int THREADS = 8;

    /**
     * How long the threads keep acquiring at once. A fixed number of grants finishes in a fraction of a
     * millisecond, before a busy machine ever runs two of the threads side by side; half a second of
     * acquiring catches an unsynchronized counter every time even on a loaded two-core machine.
     */
    private static final long RACE_MILLIS = 500;

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
    @DisplayName("Many threads acquiring at once never get the same token")
    void concurrentGrantsNeverShareAToken() throws Exception {
        LockService locks = new LockService();
        List<Grants> grants = new ArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch ready = new CountDownLatch(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Grants mine = new Grants("client-" + t);
                grants.add(mine);
                running.add(pool.submit(() -> {
                    ready.countDown();
                    start.await();
                    while (!stop.get()) {
                        mine.add(locks.acquire(mine.client));
                    }
                    return null;
                }));
            }
            assertThat(ready.await(5, TimeUnit.SECONDS))
                    .as("all %d threads must be ready to acquire within 5 s", THREADS)
                    .isTrue();
            start.countDown();
            Thread.sleep(RACE_MILLIS);
            stop.set(true);
            for (Future<?> thread : running) {
                thread.get(5, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }

        long total = grants.stream().mapToLong(g -> g.count).sum();
        long[] recorded = grants.stream()
                .flatMapToLong(g -> Arrays.stream(g.tokens, 0, g.recorded()))
                .sorted()
                .toArray();
        long repeated = 0;
        for (int i = 1; i < recorded.length; i++) {
            if (recorded[i] == recorded[i - 1]) {
                repeated++;
            }
        }
        boolean wentBackwards = grants.stream().anyMatch(g -> g.wentBackwards);
        long next = locks.acquire("after the race");
        // One verdict, in a fixed order, without the run's own numbers: a racy counter shows several symptoms,
        // and which of them a run hits first, and with which tokens, changes from run to run.
        String verdict = repeated > 0 ? "some tokens were given to two grants at once"
                : wentBackwards ? "a client got a token no larger than one it had before"
                : next != total + 1 ? "some grants were lost: the counter counted fewer grants than were made"
                : "";
        assertThat(verdict)
                .as("rule: tokens grow with every grant and no token is ever given twice, even when %d threads acquire"
                        + " at once; observed: %s. Make the read-and-increment of the counter atomic: mark acquire"
                        + " synchronized, or keep the counter in an AtomicLong (incrementAndGet)", THREADS, verdict)
                .isEmpty();
    }

    /** The grants one thread received, with the first tokens kept to look for repeats. */
    private static final class Grants {

        private static final int KEPT = 100_000;

        private final String client;
        private final long[] tokens = new long[KEPT];
        private long count;
        private long last;
        private boolean wentBackwards;

        Grants(String client) {
            this.client = client;
        }

        void add(long token) {
            if (count < KEPT) {
                tokens[(int) count] = token;
            }
            if (count > 0 && token <= last) {
                wentBackwards = true;
            }
            last = token;
            count++;
        }

        int recorded() {
            return (int) Math.min(count, KEPT);
        }
    }
}
