package fencing.lab.run;

import fencing.lab.sink.Mode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A case prepared to run: the case, and the modes left out of this run, each with why.
 *
 * <p>{@link #expected()}, {@link #modes()} and {@link #explanation()} apply the omission; everything else is read from
 * {@link #labCase()}, whose steps skip a mode the run does not serve ({@link Stage#active}).
 *
 * @param leftOut why each mode left out of this run is, by mode; empty when the case runs whole
 */
public record CaseToRun(LabCase labCase, Map<Mode, String> leftOut) {

    public CaseToRun {
        // In the order given, so that the explanation names the modes as the caller listed them.
        leftOut = Collections.unmodifiableMap(new LinkedHashMap<>(leftOut));
    }

    /** Returns {@code labCase} run whole. */
    public static CaseToRun whole(LabCase labCase) {
        return new CaseToRun(labCase, Map.of());
    }

    /**
     * Returns {@code labCase} ready to run on the student's classes: whole, or, where it is not an extension case and
     * the classes behind the {@code current-owner} mode are not written yet on {@code classPath}, without that mode.
     */
    public static CaseToRun onTheClassesAtHand(LabCase labCase, String classPath) {
        if (labCase.needsExtension() || !labCase.modes().contains(Mode.CURRENT_OWNER)) {
            return whole(labCase);
        }
        return Extension.notImplemented(classPath).map(why -> new CaseToRun(labCase, Map.of(Mode.CURRENT_OWNER, why)))
                .orElse(whole(labCase));
    }

    /** Returns what the case expects of each mode this run serves, in the case's order. */
    public Map<Mode, LabCase.ModeExpectation> expected() {
        Map<Mode, LabCase.ModeExpectation> expected = new LinkedHashMap<>(labCase.expected());
        expected.keySet().removeAll(leftOut.keySet());
        return expected;
    }

    /** Returns the modes this run serves, in the order the runner writes and reads them. */
    public List<Mode> modes() {
        return List.copyOf(expected().keySet());
    }

    /** Returns the case's explanation, and which modes this run left out and why. */
    public String explanation() {
        StringBuilder explanation = new StringBuilder(labCase.explanation());
        leftOut.forEach((mode, why) -> explanation.append(" (The ").append(mode).append(" mode was left out of this run: ").append(why)
                .append(". It belongs to Part 4, the extension.)"));
        return explanation.toString();
    }

    /** Returns the class behind each of this run's modes and the case's ledgers, by name, in the order the case uses them. */
    public Map<String, String> implementations() {
        Map<String, String> known = Map.of(Mode.PLAIN.text(), "fencing.sink.PlainSink", Mode.FENCED.text(), labCase.fencedSink().implementation(),
                Mode.CURRENT_OWNER.text(), "fencing.sink.OwnerCheckingSink with fencing.etcd.EtcdOwnerCheck",
                "fenced-counter", "fencing.lab.sink.FencedCounter", "idempotent", "fencing.sink.IdempotentLedger");
        Map<String, String> implementations = new LinkedHashMap<>();
        modes().forEach(mode -> implementations.put(mode.text(), known.get(mode.text())));
        labCase.ledgers().forEach(ledger -> implementations.put(ledger, known.get(ledger)));
        return implementations;
    }
}
