package fencing.lab.run.chaos;

import java.util.Locale;
import java.util.Set;

/**
 * What a chaos run is asked to do, as {@code ./kit study --case chaos} takes it: how many writers, for how long, and the
 * nemesis's seed and the faults it deals.
 */
public record ChaosPlan(int writers, long seconds, long seed, Set<Fault> faults) {

    /** The defaults, where {@code --writers} and {@code --duration} are not given. */
    public static final int WRITERS = 4;
    public static final long SECONDS = 30;

    public ChaosPlan {
        faults = Set.copyOf(faults);
    }

    /** Returns the command that replays this run's faults; it names {@code --faults} where they are not the default. */
    public String replay() {
        return String.format(Locale.ROOT, "./kit study --case chaos --writers %d --duration %d --seed %d%s", writers, seconds, seed,
                faults.equals(Fault.DEFAULT) ? "" : " --faults " + Fault.spell(faults));
    }
}
