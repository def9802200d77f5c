package fencing.lab.run.cases;

import fencing.lab.sink.Mode;
import fencing.lab.run.CaseToRun;
import fencing.lab.run.Extension;
import fencing.lab.run.LabCase;
import fencing.lab.run.chaos.Chaos;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Every case the study can run; a new case is named here once. */
public final class Cases {

    /** The cases, the default first. */
    public static final List<LabCase> ALL = List.of(new LateWrite(), new PreContact(), new Restart(), new CheckOutsideTransaction(),
            new Restore(), new Failover(), new Forged(), new Retry(), new Chaos());

    private Cases() {
    }

    /** Returns the class behind each of the case's modes and ledgers, by name, in the order the case uses them. */
    public static Map<String, String> implementations(CaseToRun toRun) {
        Map<String, String> known = Map.of(Mode.PLAIN.text(), "fencing.sink.PlainSink", Mode.FENCED.text(),
                toRun.studyCase().fencedSink().implementation(),
                Mode.CURRENT_OWNER.text(), "fencing.sink.OwnerCheckingSink with fencing.etcd.EtcdOwnerCheck",
                "fenced-counter", "fencing.lab.sink.FencedCounter", "idempotent", "fencing.sink.IdempotentLedger");
        Map<String, String> implementations = new LinkedHashMap<>();
        toRun.modes().forEach(mode -> implementations.put(mode.text(), known.get(mode.text())));
        toRun.studyCase().ledgers().forEach(ledger -> implementations.put(ledger, known.get(ledger)));
        return implementations;
    }

    /** Returns the first "Not implemented yet" message of the Part 4 classes behind the current-owner mode on {@code classPath}, if any. */
    public static java.util.Optional<String> extensionMissing(String classPath) {
        return Extension.notImplemented(classPath);
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
