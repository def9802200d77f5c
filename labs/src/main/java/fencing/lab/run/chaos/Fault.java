package fencing.lab.run.chaos;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** A kind of fault the chaos run's nemesis makes, as {@code --faults} names it, with the history's words for its start and end. */
public enum Fault {

    /** A writer frozen with SIGSTOP, then thawed with SIGCONT: its keepalives and its writes stop together. */
    FREEZE("freeze", "freeze", "thaw"),

    /** A writer's path to etcd cut at its bridge, then healed: its keepalives stop, its writes to the sink go on. */
    PARTITION("partition", "cut", "heal");

    /** What {@code --faults} takes when it is not given: freezes only, as every run before partitions. */
    public static final Set<Fault> DEFAULT = EnumSet.of(FREEZE);

    private final String option;
    /** The history's {@code action} at the fault's start. */
    public final String starts;
    /** The history's {@code action} at the fault's end. */
    public final String ends;

    Fault(String option, String starts, String ends) {
        this.option = option;
        this.starts = starts;
        this.ends = ends;
    }

    /** Returns the name {@code --faults} takes, e.g. {@code partition}. */
    public String option() {
        return option;
    }

    /**
     * Reads {@code --faults}, comma-separated names such as {@code freeze,partition}, in this enum's order.
     *
     * @throws IllegalArgumentException naming the names there are, for an empty list or an unknown name
     */
    public static Set<Fault> parse(String names) {
        Set<Fault> faults = EnumSet.noneOf(Fault.class);
        for (String name : names.split(",", -1)) {
            String wanted = name.trim().toLowerCase(Locale.ROOT);
            faults.add(Arrays.stream(values()).filter(f -> f.option.equals(wanted)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown fault '" + name.trim() + "': use " + listed()
                            + ", or both comma-separated")));
        }
        return faults;
    }

    /** Returns {@code faults} as {@code --faults} takes them, e.g. {@code freeze,partition}. */
    public static String option(Set<Fault> faults) {
        return faults.stream().sorted().map(Fault::option).collect(Collectors.joining(","));
    }

    /** Returns the fault whose history {@code action} is {@code action}, at its start or its end, if any. */
    public static java.util.Optional<Fault> ofAction(String action) {
        return Arrays.stream(values()).filter(f -> f.starts.equals(action) || f.ends.equals(action)).findFirst();
    }

    private static String listed() {
        return Arrays.stream(values()).map(Fault::option).collect(Collectors.joining(" or "));
    }
}
