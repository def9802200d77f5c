package fencing.lab.run.chaos;

import fencing.lab.common.CuttableBridge;
import fencing.lab.common.Times;
import fencing.lab.history.HistoryLine;
import fencing.lab.run.LabProcess;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The chaos run's fault maker: from its seed, it freezes a random writer with SIGSTOP, or cuts it off from etcd, for 0.5 to
 * 3 TTLs, again and again.
 *
 * <p>The choices are a {@link FaultPlan}'s, so the seed fixes them (which kind, which writer, how long, how long until the
 * next) and a run can be replayed with the same faults; the interleaving of the writers' requests around them is the
 * machine's. A partition cuts the writer's own {@link CuttableBridge}s to etcd and leaves its path to the sink open.
 */
final class Nemesis {

    private final long seed;
    private final long ttlMicros;
    private final Set<Fault> kinds;
    private final Map<String, LabProcess<?>> processes;
    private final Map<String, List<CuttableBridge>> toEtcd;
    private final Map<String, Fault> active = new LinkedHashMap<>();
    private final List<HistoryLine.Fault> actions = new ArrayList<>();

    /**
     * A nemesis for the writers {@code processes}, dealing faults of {@code kinds}.
     *
     * @param toEtcd each writer's only paths to etcd, to cut; needed for every writer when {@code kinds} holds {@link Fault#PARTITION}
     * @throws IllegalArgumentException if partitions are asked for and a writer has no bridges to cut
     */
    Nemesis(long seed, long ttlSeconds, Set<Fault> kinds, Map<String, LabProcess<?>> processes, Map<String, List<CuttableBridge>> toEtcd) {
        if (kinds.contains(Fault.PARTITION) && !processes.keySet().stream().allMatch(w -> toEtcd.containsKey(w) && !toEtcd.get(w).isEmpty())) {
            throw new IllegalArgumentException("partitions need every writer to reach etcd through bridges of its own; writers "
                    + processes.keySet() + ", bridged " + toEtcd.keySet());
        }
        this.seed = seed;
        this.ttlMicros = ttlSeconds * 1_000_000L;
        this.kinds = Set.copyOf(kinds);
        this.processes = processes;
        this.toEtcd = toEtcd;
    }

    /** Deals faults until {@code untilMicros}, then ends every fault still on, whatever happened. */
    void runUntil(long untilMicros) throws InterruptedException {
        FaultPlan plan = new FaultPlan(seed, ttlMicros, List.copyOf(processes.keySet()), kinds, Times.nowMicros());
        try {
            while (Times.nowMicros() < untilMicros) {
                for (FaultPlan.Step step : plan.due(Times.nowMicros())) {
                    if (!step.begins()) {
                        end(step.writer());
                    } else if (!processes.get(step.writer()).alive()) {
                        // A writer that died is the runner's to report, from what it said; dealing on would only hide it.
                        return;
                    } else {
                        begin(step);
                    }
                }
                Thread.sleep(10);
            }
        } finally {
            endAll();
        }
    }

    /** Thaws every writer still frozen and heals every writer still cut. */
    void endAll() {
        for (String writer : List.copyOf(active.keySet())) {
            end(writer);
        }
    }

    /** Returns every fault's beginning and end, in order, as the history records them. */
    List<HistoryLine.Fault> actions() {
        return List.copyOf(actions);
    }

    /** Returns how many faults of {@code kind} began. */
    int count(Fault kind) {
        return (int) actions.stream().filter(a -> a.action() == kind.begins()).count();
    }

    private void begin(FaultPlan.Step step) {
        String writer = step.writer();
        switch (step.kind()) {
            case FREEZE -> processes.get(writer).freeze();
            case PARTITION -> toEtcd.get(writer).forEach(CuttableBridge::cut);
        }
        active.put(writer, step.kind());
        actions.add(new HistoryLine.Fault(step.action(), writer, Times.nowMicros()));
    }

    private void end(String writer) {
        Fault kind = active.remove(writer);
        if (kind == null) {
            return;
        }
        switch (kind) {
            // A writer that died is the runner's to report, from what it said; there is nothing to thaw.
            case FREEZE -> {
                if (processes.get(writer).alive()) {
                    processes.get(writer).resume();
                }
            }
            case PARTITION -> toEtcd.get(writer).forEach(CuttableBridge::heal);
        }
        actions.add(new HistoryLine.Fault(kind.ends(), writer, Times.nowMicros()));
    }
}
