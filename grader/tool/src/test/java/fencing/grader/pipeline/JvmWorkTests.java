package fencing.grader.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.ResourceLimits;
import fencing.support.Supervised;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.io.TempDir;

/**
 * The figures a test's verdict rests on, read off real processes: the CPU a process uses, and whether it was starved
 * (ready to run, waiting for a CPU) or only waiting on something else.
 */
// Beside the other classes (see junit-platform.properties): it watches processes of its own, asleep or held to a
// sliver of a CPU, and what it reads of them does not depend on how busy the machine is (the busy loop's share is its
// group's quota).
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock("jvm-work")
class JvmWorkTests {

    private static final boolean REQUIRED = "true".equalsIgnoreCase(System.getenv("KIT_REQUIRE_INVARIANCE"));
    private static final Duration WATCHED = Duration.ofSeconds(4);

    @TempDir
    Path dir;

    @Test
    @DisplayName("a busy process held to 2 % of a CPU is starved; its CPU is what the group let it have")
    void aProcessHeldToATinyShareOfACpuIsStarved() throws Exception {
        Optional<String> unavailable = ResourceLimits.unavailable(false);
        if (unavailable.isPresent() && REQUIRED) {
            throw new AssertionError("KIT_REQUIRE_INVARIANCE=true, but " + unavailable.get());
        }
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> unavailable.orElse(""));
        try (ResourceLimits group = ResourceLimits.of(0.02)) {
            List<String> command = new ArrayList<>(group.prefix());
            command.addAll(List.of("sh", "-c", "while :; do :; done"));
            JvmWatch.Ending ending = watch(command);
            assertThat(ending.starved()).as("a busy loop given 2 %% of a CPU for %s: the longest wait of one of its threads was %s", WATCHED, ending.waited()).isTrue();
            assertThat(ending.cpu()).as("the CPU of a busy loop given 2 %% of a CPU for %s", WATCHED)
                    .isLessThan(Duration.ofMillis(500));
        }
    }

    @Test
    @DisplayName("a process that only waits on something else is not starved, and uses next to no CPU")
    void aProcessThatOnlyWaitsIsNotStarved() throws Exception {
        JvmWatch.Ending ending = watch(List.of("sleep", "60"));
        assertThat(ending.starved()).as("a process asleep for %s: the longest wait of one of its threads was %s",
                WATCHED, ending.waited()).isFalse();
        assertThat(ending.cpu()).as("the CPU of a process asleep for %s", WATCHED).isLessThan(Duration.ofMillis(100));
    }

    @Test
    @DisplayName("a busy process's CPU is counted as it runs")
    void aBusyProcessesCpuIsCounted() throws Exception {
        try (Supervised busy = Supervised.start("busy", List.of("sh", "-c", "while :; do :; done"), dir.resolve("busy.log").toFile())) {
            JvmWork work = new JvmWork(busy.pid());
            JvmWork.Reading start = work.read();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (work.cpuSince(start).compareTo(Duration.ofMillis(300)) < 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(work.cpuSince(start)).as("the CPU a busy loop was counted within a minute").isGreaterThanOrEqualTo(Duration.ofMillis(300));
        }
    }

    /** Starts {@code command} and reads it at the start and at the end of {@link #WATCHED}, as the backstop does. */
    private JvmWatch.Ending watch(List<String> command) throws Exception {
        try (Supervised process = Supervised.start("watched", command, dir.resolve("watched.log").toFile())) {
            // The command's own pid is the prefix's shell until it execs: wait for the process that is there to stay.
            Thread.sleep(300);
            long pid = process.pid();
            JvmWork work = new JvmWork(pid);
            JvmWork.Reading start = work.read();
            Thread.sleep(WATCHED.toMillis());
            JvmWork.Reading end = work.read();
            return new JvmWatch.Ending(JvmWatch.Kind.TIME_LIMIT, "watched", true, end.cpuSince(start),
                    end.longestWaitSince(start).orElseThrow(), WATCHED);
        }
    }
}
