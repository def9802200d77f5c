package fencing.lab.run.chaos;

import fencing.lab.common.LoopbackBridge;
import fencing.lab.common.Times;
import fencing.lab.run.LabProcess;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The chaos run's fault maker: from its seed, it strikes a random writer for 0.5 to 3 TTLs, again and again, with one of
 * the {@link Fault}s asked for: a freeze (SIGSTOP) or a partition (its path to etcd cut at its bridge, its path to the sink open).
 *
 * <p>A new fault comes 0.5 to 2 TTLs after the previous one. The seed fixes the sequence of choices (which writer, how long,
 * which kind where more than one was asked for, how long until the next), so a run can be replayed with the same faults;
 * the interleaving of the writers' requests around them is the machine's. At least one writer is always left untouched,
 * so that the lock keeps changing hands. With freezes alone, the seed draws exactly what it drew before partitions existed.
 */
final class Nemesis {

    /** One fault's start or end, for the history: {@code freeze}/{@code thaw} or {@code cut}/{@code heal}. */
    record Action(String action, String writer, long atMicros) {
    }

    /** A fault under way: which kind, and when it ends. */
    private record Struck(Fault fault, long endsAt) {
    }

    private final Random random;
    private final long ttlMicros;
    private final List<String> writers;
    private final List<Fault> faults;
    private final Map<String, LabProcess<?>> processes;
    private final Map<String, List<LoopbackBridge>> bridges;
    private final Map<String, Struck> struck = new LinkedHashMap<>();
    private final List<Action> actions = new ArrayList<>();

    /**
     * A nemesis over {@code processes}, by writer name; {@code bridges} holds each writer's paths to etcd, which a
     * partition cuts, and must name every writer when {@code faults} has {@link Fault#PARTITION}.
     */
    Nemesis(long seed, long ttlSeconds, Set<Fault> faults, Map<String, LabProcess<?>> processes, Map<String, List<LoopbackBridge>> bridges) {
        if (faults.isEmpty()) {
            throw new IllegalArgumentException("the nemesis needs at least one kind of fault");
        }
        if (faults.contains(Fault.PARTITION) && !bridges.keySet().containsAll(processes.keySet())) {
            throw new IllegalArgumentException("a partition cuts a writer's bridges to etcd, and these writers have none: "
                    + processes.keySet().stream().filter(w -> !bridges.containsKey(w)).toList());
        }
        this.random = new Random(seed);
        this.ttlMicros = ttlSeconds * 1_000_000L;
        // In the enum's order, whatever the set's: the seed's draws must pick the same kind in every JVM.
        this.faults = List.copyOf(EnumSet.copyOf(faults));
        this.processes = processes;
        this.bridges = bridges;
        this.writers = List.copyOf(processes.keySet());
    }

    /** Strikes writers and ends their faults until {@code untilMicros}, then ends every fault still under way. */
    void runUntil(long untilMicros) throws InterruptedException {
        try {
            long nextFault = Times.nowMicros() + gap();
            while (Times.nowMicros() < untilMicros) {
                long now = Times.nowMicros();
                for (String writer : List.copyOf(struck.keySet())) {
                    if (struck.get(writer).endsAt() <= now) {
                        end(writer);
                    }
                }
                if (now >= nextFault) {
                    List<String> untouched = writers.stream().filter(w -> !struck.containsKey(w)).toList();
                    // Drawn whether or not a writer can be struck now, so that the sequence depends on the seed alone.
                    int pick = random.nextInt(writers.size());
                    long span = (long) (ttlMicros * (0.5 + 2.5 * random.nextDouble()));
                    // Drawn only where there is a choice, so that a run of freezes alone replays as it did before partitions.
                    Fault fault = faults.size() == 1 ? faults.get(0) : faults.get(random.nextInt(faults.size()));
                    if (untouched.size() > 1) {
                        String writer = untouched.get(pick % untouched.size());
                        if (!processes.get(writer).alive()) {
                            return;
                        }
                        start(writer, fault, span);
                    }
                    nextFault = now + gap();
                }
                Thread.sleep(10);
            }
        } finally {
            endAll();
        }
    }

    /** Ends every fault still under way: thaws the frozen writers and heals the cut ones. */
    void endAll() {
        for (String writer : List.copyOf(struck.keySet())) {
            end(writer);
        }
    }

    /** Returns every fault's start and end, in order. */
    List<Action> actions() {
        return List.copyOf(actions);
    }

    /** Returns how many faults of {@code kind} were started. */
    int count(Fault kind) {
        return (int) actions.stream().filter(a -> a.action().equals(kind.starts)).count();
    }

    private void start(String writer, Fault fault, long span) {
        switch (fault) {
            case FREEZE -> processes.get(writer).freeze();
            case PARTITION -> bridges.get(writer).forEach(LoopbackBridge::cut);
        }
        struck.put(writer, new Struck(fault, Times.nowMicros() + span));
        actions.add(new Action(fault.starts, writer, Times.nowMicros()));
    }

    private void end(String writer) {
        Fault fault = struck.remove(writer).fault();
        switch (fault) {
            // A writer that died is the runner's to report, from what it said; there is nothing to thaw.
            case FREEZE -> {
                if (processes.get(writer).alive()) {
                    processes.get(writer).resume();
                }
            }
            case PARTITION -> bridges.get(writer).forEach(LoopbackBridge::heal);
        }
        actions.add(new Action(fault.ends, writer, Times.nowMicros()));
    }

    private long gap() {
        // Half a TTL to two TTLs between faults: often enough to catch holders mid-hold, rare enough that the lock keeps moving.
        return (long) (ttlMicros * (0.5 + 1.5 * random.nextDouble()));
    }
}
