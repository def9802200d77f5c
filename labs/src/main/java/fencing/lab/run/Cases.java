package fencing.lab.run;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Every case the study can run; a new case is named here once. */
public final class Cases {

    /** The cases, the default first. */
    public static final List<LabCase> ALL = List.of(new LateWrite(), new PreContact(), new Restart(), new CheckOutsideTransaction(),
            new Restore(), new Forged(), new Retry(), new Chaos());

    private Cases() {
    }

    /** Returns the case named {@code name} on the command line, e.g. {@code late-write}. */
    public static LabCase of(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        return ALL.stream().filter(c -> c.name().equals(wanted)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "unknown case '" + name + "': use " + names()));
    }

    /** Returns the names, e.g. {@code late-write, pre-contact, restart or check-outside-transaction}. */
    public static String names() {
        List<String> names = ALL.stream().map(LabCase::name).toList();
        return names.subList(0, names.size() - 1).stream().collect(Collectors.joining(", ")) + " or " + names.get(names.size() - 1);
    }
}
