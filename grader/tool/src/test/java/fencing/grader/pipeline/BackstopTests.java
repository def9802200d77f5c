package fencing.grader.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencing.grading.Backstop;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The hidden tests' limit on a wait for the code under test: the limit itself where nothing is starved, and longer by the
 * time this JVM's threads stood waiting for a CPU where something is.
 */
class BackstopTests {

    private static final Duration LIMIT = Duration.ofMillis(200);

    @Test
    @DisplayName("an event that has happened is seen at once, and a result that is there is returned")
    void whatHasHappenedIsSeenAtOnce() throws Exception {
        CountDownLatch open = new CountDownLatch(0);
        assertThat(Backstop.of(Duration.ofDays(1)).await(open)).as("await on an open latch, with a day's limit").isTrue();
        assertThat(Backstop.of(Duration.ofDays(1)).get(CompletableFuture.completedFuture(7)))
                .as("get on a future already completed with 7, with a day's limit").isEqualTo(7);
    }

    @Test
    @DisplayName("an event that never comes is given up on, never before the limit")
    void anEventThatNeverComesIsGivenUpOnNoSoonerThanTheLimit() throws Exception {
        long start = System.nanoTime();
        boolean seen = Backstop.of(LIMIT).await(new CountDownLatch(1));
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        assertThat(seen).as("await on a latch no one opens, limit %s", LIMIT).isFalse();
        assertThat(waited).as("how long await waited for a latch no one opens, limit %s", LIMIT).isGreaterThanOrEqualTo(LIMIT);

        long getStart = System.nanoTime();
        assertThatThrownBy(() -> Backstop.of(LIMIT).get(new CompletableFuture<Void>()))
                .as("get on a future no one completes, limit %s", LIMIT).isInstanceOf(TimeoutException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - getStart))
                .as("how long get waited for a future no one completes, limit %s", LIMIT).isGreaterThanOrEqualTo(LIMIT);
    }

    @Test
    @DisplayName("while the JVM's threads wait for a CPU, the limit stretches by their wait: a starved machine slows a test, never ends it")
    void theLimitStretchesWhileTheThreadsAreStarved() throws Exception {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/thread-self/schedstat")),
                "this system does not count a thread's waits for a CPU (no /proc/thread-self/schedstat)");
        int busy = 4 * Runtime.getRuntime().availableProcessors();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        try {
            for (int i = 0; i < busy; i++) {
                Thread thread = new Thread(() -> {
                    while (!stop.get()) {
                        Thread.onSpinWait();
                    }
                }, "busy " + i);
                thread.setDaemon(true);
                thread.start();
                threads.add(thread);
            }
            long start = System.nanoTime();
            Backstop backstop = Backstop.of(LIMIT);
            while (!backstop.passed()) {
                Thread.sleep(5);
            }
            Duration waited = Duration.ofNanos(System.nanoTime() - start);
            // With four busy threads to a CPU, each runs about a quarter of the time and stands in the queue for the rest,
            // so the limit grows to several times itself; twice is far inside that on any number of cores.
            assertThat(waited).as("how long a %s limit lasted while %d threads kept %d CPUs busy", LIMIT, busy,
                    Runtime.getRuntime().availableProcessors()).isGreaterThanOrEqualTo(LIMIT.multipliedBy(2));
        } finally {
            stop.set(true);
            for (Thread thread : threads) {
                thread.join();
            }
        }
    }
}
