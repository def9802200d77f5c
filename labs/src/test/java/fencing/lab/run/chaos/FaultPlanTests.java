package fencing.lab.run.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The nemesis's choices, stepped through a run on a made-up clock: no process, no etcd, no waiting. */
class FaultPlanTests {

    private static final long TTL = 2_000_000;
    private static final long TICK = 10_000;
    private static final List<String> WRITERS = List.of("w1", "w2", "w3", "w4");
    private static final Set<Fault> BOTH = EnumSet.of(Fault.FREEZE, Fault.PARTITION);

    /** A step of the plan and the made-up time it came at. */
    record At(long micros, FaultPlan.Step step) {
    }

    /** Steps a plan through {@code seconds} of a run in the nemesis's 10 ms ticks, as its loop does. */
    private static List<At> run(long seed, List<String> writers, Set<Fault> kinds, long seconds) {
        FaultPlan plan = new FaultPlan(seed, TTL, writers, kinds, 0);
        List<At> steps = new ArrayList<>();
        for (long now = 0; now < seconds * 1_000_000; now += TICK) {
            for (FaultPlan.Step step : plan.due(now)) {
                steps.add(new At(now, step));
            }
        }
        return steps;
    }

    @Test
    @DisplayName("the same seed deals the same faults, kinds and all, at the same moments; another seed deals others")
    void theSeedAloneFixesTheFaults() {
        List<At> first = run(42, WRITERS, BOTH, 60);
        List<At> again = run(42, WRITERS, BOTH, 60);

        assertThat(first).as("faults dealt over a minute").hasSizeGreaterThan(20);
        assertThat(again).as("the same seed, run again").isEqualTo(first);
        assertThat(run(43, WRITERS, BOTH, 60)).as("another seed").isNotEqualTo(first);
    }

    @Test
    @DisplayName("with both kinds asked for, a run deals both; with one, only that one")
    void onlyTheKindsAskedForAreDealt() {
        assertThat(kinds(run(7, WRITERS, BOTH, 60))).as("freeze,partition over a minute").containsExactlyInAnyOrder(Fault.FREEZE, Fault.PARTITION);
        assertThat(kinds(run(7, WRITERS, EnumSet.of(Fault.PARTITION), 60))).as("partition alone").containsExactly(Fault.PARTITION);
        assertThat(kinds(run(7, WRITERS, EnumSet.of(Fault.FREEZE), 60))).as("freeze alone").containsExactly(Fault.FREEZE);
    }

    @ParameterizedTest(name = "{0} writers")
    @ValueSource(ints = {2, 3, 4, 16})
    @DisplayName("a writer has one fault at a time, each ends as it began, and one writer is always left running")
    void oneWriterIsAlwaysLeftRunning(int writers) {
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= writers; i++) {
            names.add("w" + i);
        }
        for (long seed = 1; seed <= 20; seed++) {
            Map<String, Fault> on = new LinkedHashMap<>();
            for (At at : run(seed, names, BOTH, 60)) {
                FaultPlan.Step step = at.step();
                if (step.begins()) {
                    assertThat(on.put(step.writer(), step.kind())).as("seed %d at %d µs: %s began a fault while it had one", seed, at.micros(),
                            step.writer()).isNull();
                } else {
                    assertThat(on.remove(step.writer())).as("seed %d at %d µs: %s's %s ended a fault it did not have", seed, at.micros(),
                            step.writer(), step.action().text()).isEqualTo(step.kind());
                }
                assertThat(on.size()).as("seed %d at %d µs: writers frozen or cut %s of %d", seed, at.micros(), on, writers)
                        .isLessThan(writers);
            }
        }
    }

    @Test
    @DisplayName("each fault lasts 0.5 to 3 TTLs, and its beginning and end are the history's freeze and thaw, or cut and heal")
    void faultsLastAsLongAsFreezesAndAreSpelledByKind() {
        Map<String, At> begun = new LinkedHashMap<>();
        for (At at : run(5, WRITERS, BOTH, 120)) {
            FaultPlan.Step step = at.step();
            assertThat(step.action().text()).as("the history's action for %s", step)
                    .isEqualTo(step.kind() == Fault.FREEZE ? (step.begins() ? "freeze" : "thaw") : (step.begins() ? "cut" : "heal"));
            if (step.begins()) {
                begun.put(step.writer(), at);
            } else {
                long lasted = at.micros() - begun.remove(step.writer()).micros();
                assertThat(lasted).as("how long %s's %s lasted, in µs", step.writer(), step.kind()).isBetween(TTL / 2, 3 * TTL + TICK);
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 3, 11, 20, -7_212_345_678_901L})
    @DisplayName("freezes alone are dealt as before partitions could be, so a seed recorded then replays the same freezes")
    void freezesAloneReplayTheSeedsOfBefore(long seed) {
        List<String> dealt = run(seed, WRITERS, EnumSet.of(Fault.FREEZE), 60).stream()
                .map(at -> at.micros() + " " + at.step().action().text() + " " + at.step().writer()).toList();

        assertThat(dealt).as("the freezes and thaws of seed %d", seed).isEqualTo(before(seed, 60));
    }

    @Test
    @DisplayName("a plan without any kind of fault is refused")
    void aPlanNeedsAKindOfFault() {
        assertThatThrownBy(() -> new FaultPlan(1, TTL, WRITERS, Set.of(), 0)).as("no kinds")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one kind of fault");
    }

    private static Set<Fault> kinds(List<At> steps) {
        Set<Fault> kinds = new HashSet<>();
        steps.forEach(at -> kinds.add(at.step().kind()));
        return kinds;
    }

    /** The nemesis's draws as they were when it only froze, on the same made-up clock: pick, span, then the gap. */
    private static List<String> before(long seed, long seconds) {
        Random random = new Random(seed);
        Map<String, Long> thawAt = new LinkedHashMap<>();
        List<String> dealt = new ArrayList<>();
        long nextFreeze = (long) (TTL * (0.5 + 1.5 * random.nextDouble()));
        for (long now = 0; now < seconds * 1_000_000; now += TICK) {
            for (String writer : List.copyOf(thawAt.keySet())) {
                if (thawAt.get(writer) <= now) {
                    thawAt.remove(writer);
                    dealt.add(now + " thaw " + writer);
                }
            }
            if (now >= nextFreeze) {
                List<String> running = WRITERS.stream().filter(w -> !thawAt.containsKey(w)).toList();
                int pick = random.nextInt(WRITERS.size());
                long span = (long) (TTL * (0.5 + 2.5 * random.nextDouble()));
                if (running.size() > 1) {
                    String writer = running.get(pick % running.size());
                    thawAt.put(writer, now + span);
                    dealt.add(now + " freeze " + writer);
                }
                nextFreeze = now + (long) (TTL * (0.5 + 1.5 * random.nextDouble()));
            }
        }
        return dealt;
    }
}
