package fencing.lab.run.chaos;

import fencing.lab.history.HistoryLine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The nemesis's choices, from its seed alone: when the next fault comes, of which kind, to which writer, for how long.
 *
 * <p>It is told the time rather than reading a clock and touches no process, so that the choices can be stepped
 * through without a run; {@link Nemesis} carries them out. A fault comes 0.5 to 2 TTLs after the previous one and lasts
 * 0.5 to 3 TTLs. A writer has at most one fault at a time, and a fault is dealt only while at least two writers have
 * none, so that one is always left running and the lock keeps changing hands.
 */
final class FaultPlan {

    /**
     * One fault beginning or ending.
     *
     * @param kind   the fault
     * @param begins whether it begins (a freeze, a cut) rather than ends (a thaw, a heal)
     */
    record Step(Fault kind, boolean begins, String writer) {

        /** Returns the history's action for this step, e.g. {@code cut}. */
        HistoryLine.Fault.Action action() {
            return begins ? kind.begins() : kind.ends();
        }
    }

    private final Random random;
    private final long ttlMicros;
    private final List<String> writers;
    private final List<Fault> kinds;
    private final Map<String, Long> endsAt = new LinkedHashMap<>();
    private final Map<String, Fault> dealt = new LinkedHashMap<>();
    private long next;

    /**
     * Plans faults of {@code kinds} for {@code writers}, the first one 0.5 to 2 TTLs after {@code startMicros}.
     *
     * @throws IllegalArgumentException if no kind is given
     */
    FaultPlan(long seed, long ttlMicros, List<String> writers, Set<Fault> kinds, long startMicros) {
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("the nemesis needs at least one kind of fault to deal, got none");
        }
        this.random = new Random(seed);
        this.ttlMicros = ttlMicros;
        this.writers = List.copyOf(writers);
        this.kinds = kinds.stream().sorted().toList();
        this.next = startMicros + gap();
    }

    /**
     * Returns what is due at {@code nowMicros}, which never goes back between calls: the faults whose time is up end
     * first, then a new one may begin.
     */
    List<Step> due(long nowMicros) {
        List<Step> steps = new ArrayList<>();
        for (String writer : List.copyOf(endsAt.keySet())) {
            if (endsAt.get(writer) <= nowMicros) {
                endsAt.remove(writer);
                steps.add(new Step(dealt.remove(writer), false, writer));
            }
        }
        if (nowMicros >= next) {
            List<String> running = writers.stream().filter(w -> !endsAt.containsKey(w)).toList();
            // Drawn whether or not a fault can begin now, so that the sequence depends on the seed alone.
            int pick = random.nextInt(writers.size());
            long span = (long) (ttlMicros * (0.5 + 2.5 * random.nextDouble()));
            // Drawn only where there is a choice: a run of freezes alone draws what it drew before there was one, so old seeds replay.
            Fault kind = kinds.size() == 1 ? kinds.get(0) : kinds.get(random.nextInt(kinds.size()));
            if (running.size() > 1) {
                String writer = running.get(pick % running.size());
                endsAt.put(writer, nowMicros + span);
                dealt.put(writer, kind);
                steps.add(new Step(kind, true, writer));
            }
            next = nowMicros + gap();
        }
        return steps;
    }

    private long gap() {
        // Half a TTL to two TTLs between faults: often enough to catch holders mid-hold, rare enough that the lock keeps moving.
        return (long) (ttlMicros * (0.5 + 1.5 * random.nextDouble()));
    }
}
