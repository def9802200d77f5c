package fencing.lab.run.chaos;

import fencing.lab.run.LabProcess;
import fencing.lab.common.Times;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The chaos run's fault maker: from its seed, it freezes a random writer with SIGSTOP for 0.5 to 3 TTLs, again and again.
 *
 * <p>A new freeze comes 0.5 to 2 TTLs after the previous one. The seed fixes the sequence of choices (which writer, how long, how long until the next freeze), so a
 * run can be replayed with the same faults; the interleaving of the writers' requests around them is the
 * machine's. At least one writer is always left running, so that the lock keeps changing hands.
 */
final class Nemesis {

    /** One freeze or thaw, for the history. */
    record Action(String action, String writer, long atMicros) {
    }

    private final Random random;
    private final long ttlMicros;
    private final List<String> writers;
    private final Map<String, LabProcess<?>> processes;
    private final Map<String, Long> thawAt = new LinkedHashMap<>();
    private final List<Action> actions = new ArrayList<>();

    Nemesis(long seed, long ttlSeconds, Map<String, LabProcess<?>> processes) {
        this.random = new Random(seed);
        this.ttlMicros = ttlSeconds * 1_000_000L;
        this.processes = processes;
        this.writers = List.copyOf(processes.keySet());
    }

    /** Freezes and thaws writers until {@code untilMicros}, then thaws every writer still frozen. */
    void runUntil(long untilMicros) throws InterruptedException {
        try {
            long nextFreeze = Times.nowMicros() + gap();
            while (Times.nowMicros() < untilMicros) {
                long now = Times.nowMicros();
                for (String writer : List.copyOf(thawAt.keySet())) {
                    if (thawAt.get(writer) <= now) {
                        thaw(writer);
                    }
                }
                if (now >= nextFreeze) {
                    List<String> running = writers.stream().filter(w -> !thawAt.containsKey(w)).toList();
                    // Drawn whether or not a writer can be frozen now, so that the sequence depends on the seed alone.
                    int pick = random.nextInt(writers.size());
                    long span = (long) (ttlMicros * (0.5 + 2.5 * random.nextDouble()));
                    if (running.size() > 1) {
                        String writer = running.get(pick % running.size());
                        if (!processes.get(writer).alive()) {
                            return;
                        }
                        processes.get(writer).freeze();
                        thawAt.put(writer, Times.nowMicros() + span);
                        actions.add(new Action("freeze", writer, Times.nowMicros()));
                    }
                    nextFreeze = now + gap();
                }
                Thread.sleep(10);
            }
        } finally {
            thawAll();
        }
    }

    /** Thaws every writer still frozen. */
    void thawAll() {
        for (String writer : List.copyOf(thawAt.keySet())) {
            thaw(writer);
        }
    }

    /** Returns every freeze and thaw, in order. */
    List<Action> actions() {
        return List.copyOf(actions);
    }

    private void thaw(String writer) {
        // A writer that died is the runner's to report, from what it said; there is nothing to thaw.
        if (processes.get(writer).alive()) {
            processes.get(writer).resume();
        }
        thawAt.remove(writer);
        actions.add(new Action("thaw", writer, Times.nowMicros()));
    }

    private long gap() {
        // Half a TTL to two TTLs between freezes: often enough to catch holders mid-hold, rare enough that the lock keeps moving.
        return (long) (ttlMicros * (0.5 + 1.5 * random.nextDouble()));
    }
}
