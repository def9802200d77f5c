package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.sink.ConnectionSource;
import fencing.sink.PlainSink;
import fencing.sink.Sink;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's own check of {@link ConnectionSource#sqlite(Path)}: contention on a fresh file is never an error.
 *
 * <p>Before the file was prepared once per source, about one trial in ten of eight simultaneous first
 * writes failed with {@code SQLITE_BUSY} while a new connection switched the file to WAL; forty trials
 * would catch that with a probability of about 98 %.
 */
class SqliteFirstWritesTests {

    private static final int TRIALS = 40;
    private static final int WRITERS = 8;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120)
    @DisplayName("eight simultaneous first writes on a fresh file all succeed, through one source or eight")
    void simultaneousFirstWritesOnAFreshFileNeverFail() throws Exception {
        List<String> failures = new ArrayList<>();
        for (int trial = 0; trial < TRIALS; trial++) {
            Path file = dir.resolve("fresh-" + trial + ".db");
            // Even trials share one source made beforehand; odd trials make a source per writer, all at once.
            ConnectionSource shared = trial % 2 == 0 ? ConnectionSource.sqlite(file) : null;
            CountDownLatch start = new CountDownLatch(1);
            List<CompletableFuture<Void>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                long token = w + 1;
                writers.add(CompletableFuture.runAsync(() -> {
                    await(start);
                    Sink sink = new PlainSink(shared != null ? shared : ConnectionSource.sqlite(file));
                    sink.write(token, "writer " + token);
                }));
            }
            start.countDown();
            for (int w = 0; w < WRITERS; w++) {
                try {
                    writers.get(w).get(30, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    failures.add("trial " + trial + " (" + (shared != null ? "one source" : "a source per writer")
                            + "), writer " + (w + 1) + ": " + e.getCause());
                }
            }
        }

        assertThat(failures)
                .as("contention is never an error: %d trials of %d simultaneous first writes on a fresh file must all "
                        + "succeed, but these failed", TRIALS, WRITERS)
                .isEmpty();
    }

    private static void await(CountDownLatch start) {
        try {
            start.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted before the start", e);
        }
    }
}
