package fencing.lab.run;

import fencing.lab.sink.Mode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A case as the runner runs it: the case, and the modes left out of this run, each with why.
 *
 * <p>{@link #expected()}, {@link #modes()} and {@link #explanation()} apply the omission; everything else is read from
 * {@link #studyCase()}, whose steps skip a mode the run does not serve ({@link Stage#active}).
 *
 * @param leftOut why each mode left out of this run is, by mode; empty when the case runs whole
 */
public record CaseToRun(StudyCase studyCase, Map<Mode, String> leftOut) {

    public CaseToRun {
        // In the order given, so that the explanation names the modes as the caller listed them.
        leftOut = Collections.unmodifiableMap(new LinkedHashMap<>(leftOut));
    }

    /** Returns {@code studyCase} run whole. */
    public static CaseToRun whole(StudyCase studyCase) {
        return new CaseToRun(studyCase, Map.of());
    }

    /**
     * Returns {@code studyCase} ready to run on the student's classes: whole, or, where it is not an extension case and
     * the classes behind the {@code current-owner} mode are not written yet on {@code classPath}, without that mode.
     */
    public static CaseToRun onTheClassesAtHand(StudyCase studyCase, String classPath) {
        if (studyCase.needsExtension() || !studyCase.modes().contains(Mode.CURRENT_OWNER)) {
            return whole(studyCase);
        }
        return Extension.notImplemented(classPath).map(why -> new CaseToRun(studyCase, Map.of(Mode.CURRENT_OWNER, why)))
                .orElse(whole(studyCase));
    }

    /** Returns what the case expects of each mode this run serves, in the case's order. */
    public Map<Mode, StudyCase.ModeExpectation> expected() {
        Map<Mode, StudyCase.ModeExpectation> expected = new LinkedHashMap<>(studyCase.expected());
        expected.keySet().removeAll(leftOut.keySet());
        return expected;
    }

    /** Returns the modes this run serves, in the order the runner writes and reads them. */
    public List<Mode> modes() {
        return List.copyOf(expected().keySet());
    }

    /** Returns the case's explanation, and which modes this run left out and why. */
    public String explanation() {
        StringBuilder explanation = new StringBuilder(studyCase.explanation());
        leftOut.forEach((mode, why) -> explanation.append(" (The ").append(mode).append(" mode was left out of this run: ").append(why)
                .append(". It belongs to Part 4, the extension.)"));
        return explanation.toString();
    }
}
