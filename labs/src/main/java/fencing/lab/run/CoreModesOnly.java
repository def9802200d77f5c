package fencing.lab.run;

import fencing.lab.sink.FencedVariant;
import fencing.lab.sink.SinkServer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A case run without its {@code current-owner} mode, because the student's Part 4 classes are not written yet.
 *
 * <p>Everything else is the case's own; the case's steps skip the mode, and the explanation says why it is missing.
 */
final class CoreModesOnly implements StudyCase {

    private final StudyCase studyCase;
    private final String why;

    CoreModesOnly(StudyCase studyCase, String why) {
        this.studyCase = studyCase;
        this.why = why;
    }

    @Override
    public String name() {
        return studyCase.name();
    }

    @Override
    public String title() {
        return studyCase.title();
    }

    @Override
    public boolean restoresEtcd() {
        return studyCase.restoresEtcd();
    }

    @Override
    public boolean failsOverLeader() {
        return studyCase.failsOverLeader();
    }

    @Override
    public FencedVariant fencedSink() {
        return studyCase.fencedSink();
    }

    @Override
    public Map<String, ModeExpectation> expected() {
        Map<String, ModeExpectation> expected = new LinkedHashMap<>(studyCase.expected());
        expected.remove(SinkServer.CURRENT_OWNER);
        return expected;
    }

    @Override
    public Map<String, LedgerExpectation> expectedLedgers() {
        return studyCase.expectedLedgers();
    }

    @Override
    public boolean forgesToken() {
        return studyCase.forgesToken();
    }

    @Override
    public ExpectedMark expectedMark() {
        return studyCase.expectedMark();
    }

    @Override
    public String explanation() {
        return studyCase.explanation() + " (The current-owner mode was left out of this run: " + why + ". It belongs to"
                + " Part 4, the extension.)";
    }

    @Override
    public String contractNote() {
        return studyCase.contractNote();
    }

    @Override
    public List<Step> steps() {
        return studyCase.steps();
    }

    @Override
    public void check(Outcome outcome, List<String> differences) {
        studyCase.check(outcome, differences);
    }

    @Override
    public void notes(Outcome outcome, List<String> notes) {
        studyCase.notes(outcome, notes);
    }
}
