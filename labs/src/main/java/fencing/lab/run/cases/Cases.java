package fencing.lab.run.cases;

import fencing.lab.run.LabCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The registry of the cases the study can run; a new case is named here once. */
public final class Cases {

    /** The cases, the default first. */
    public static final List<LabCase> ALL = List.of(new LateWrite(), new PreContact(), new Restart(), new CheckOutsideTransaction(),
            new Restore(), new Failover(), new Forged(), new Retry(), new SlowClock(), new Partition());

    /** The chaos run's name, which {@code --case} takes as well: a run of its own, with no steps, so not among {@link #ALL}. */
    public static final String CHAOS = "chaos";

    private Cases() {
    }

    /** Returns every name {@code --case} takes but {@code all}, in order: the cases', then {@link #CHAOS}. */
    public static List<String> names() {
        List<String> names = new ArrayList<>(ALL.stream().map(LabCase::name).toList());
        names.add(CHAOS);
        return List.copyOf(names);
    }

    /**
     * Returns the case named {@code name} on the command line, e.g. {@code late-write}; nothing for {@link #CHAOS}.
     *
     * @throws IllegalArgumentException naming the names there are, if {@code name} is none of them
     */
    public static Optional<LabCase> of(String name) {
        String wanted = canonical(name);
        return ALL.stream().filter(c -> c.name().equals(wanted)).findFirst();
    }

    /**
     * Returns {@code name} as the registry spells it, e.g. {@code late-write} for {@code " Late-Write"}.
     *
     * @throws IllegalArgumentException naming the names there are, if {@code name} is none of them
     */
    public static String canonical(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        if (!names().contains(wanted)) {
            throw new IllegalArgumentException("unknown case '" + name + "': use " + listed());
        }
        return wanted;
    }

    /** Returns the names, e.g. {@code late-write, pre-contact, restart or chaos}. */
    public static String listed() {
        List<String> names = names();
        return names.subList(0, names.size() - 1).stream().collect(Collectors.joining(", ")) + " or " + names.get(names.size() - 1);
    }
}
