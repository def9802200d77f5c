package fencing.lab.run.chaos;

import fencing.lab.common.Spelled;
import fencing.lab.history.HistoryLine;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A kind of fault the chaos run's nemesis deals a writer, as {@code --faults} names it: a freeze, or a cut from etcd.
 *
 * <p>Each begins and ends with its own action in the history: a freeze with {@code freeze} and {@code thaw}, a partition
 * with {@code cut} and {@code heal}.
 */
public enum Fault implements Spelled {

    /** SIGSTOP, later SIGCONT: the writer stops altogether, every path with it. */
    FREEZE("freeze", HistoryLine.Fault.Action.FREEZE),
    /** The writer's bridges to etcd cut, later healed: it runs on and reaches the sink, but etcd hears nothing from it. */
    PARTITION("partition", HistoryLine.Fault.Action.CUT);

    /** The faults a run deals when {@code --faults} is not given: freezes only, as before there was a choice, so old seeds replay. */
    public static final Set<Fault> DEFAULT = Set.copyOf(EnumSet.of(FREEZE));

    private final String text;
    private final HistoryLine.Fault.Action begins;

    Fault(String text, HistoryLine.Fault.Action begins) {
        this.text = text;
        this.begins = begins;
    }

    /** Returns the fault as {@code --faults} spells it, e.g. {@code partition}. */
    @Override
    public String text() {
        return text;
    }

    /** Returns the history's action for this fault's beginning, e.g. {@code cut}. */
    HistoryLine.Fault.Action begins() {
        return begins;
    }

    /** Returns the history's action for this fault's end, e.g. {@code heal}. */
    HistoryLine.Fault.Action ends() {
        // The history's own pairing of a beginning with its end, so that it is said in one place.
        return begins.end();
    }

    /**
     * Reads {@code --faults}: names separated by commas, e.g. {@code freeze,partition}, in any case, as {@code --case} reads its names.
     *
     * @return the faults, in this enum's order, whatever the order given
     * @throws IllegalArgumentException naming the faults there are, if a name is none of them or the list is empty
     */
    public static Set<Fault> parse(String list) {
        EnumSet<Fault> faults = EnumSet.noneOf(Fault.class);
        for (String name : list.split(",", -1)) {
            String wanted = name.trim().toLowerCase(Locale.ROOT);
            Fault fault = Spelled.find(Fault.class, wanted).orElseThrow(() -> new IllegalArgumentException(
                    "no such fault '" + name.trim() + "' in '" + list + "': use " + listed() + ", comma-separated"));
            faults.add(fault);
        }
        return Collections.unmodifiableSet(faults);
    }

    /** Returns {@code faults} as {@code --faults} takes them, e.g. {@code freeze,partition}. */
    public static String spell(Set<Fault> faults) {
        return faults.stream().sorted().map(Fault::text).collect(Collectors.joining(","));
    }

    /** Returns the names there are, e.g. {@code freeze or partition}. */
    static String listed() {
        return Arrays.stream(values()).map(Fault::text).collect(Collectors.joining(" or "));
    }

    @Override
    public String toString() {
        return text;
    }
}
