package fencing.lab.run;

import fencing.lab.Times;
import fencing.lab.report.Evidence;
import fencing.lab.report.Evidence.Kind;
import fencing.lab.report.Evidence.Lane;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The timeline of a repeat as it is recorded, from several threads. */
final class Events {

    private final List<Evidence.Event> events = new ArrayList<>();
    private long start;

    void start(long atMicros) {
        this.start = atMicros;
    }

    long start() {
        return start;
    }

    /** Records an event with no token, mode or verdict. */
    void add(Lane lane, Kind kind, long atMicros, String label, String detail) {
        add(lane, kind, atMicros, label, detail, null, null, null);
    }

    void add(Lane lane, Kind kind, long atMicros, String label, String detail, Long token, String mode, String verdict) {
        add(lane, kind, atMicros, label, detail, token, mode, verdict, null);
    }

    synchronized void add(Lane lane, Kind kind, long atMicros, String label, String detail, Long token, String mode, String verdict, Long total) {
        events.add(new Evidence.Event(lane, kind, atMicros, 0, label, detail, token, mode, verdict, total));
    }

    /** Returns the events in time order, with their times relative to the repeat's start. */
    synchronized List<Evidence.Event> timeline() {
        List<Evidence.Event> timeline = new ArrayList<>();
        for (Evidence.Event e : events) {
            timeline.add(new Evidence.Event(e.lane(), e.kind(), e.atMicros(), Times.millis(e.atMicros() - start), e.label(), e.detail(),
                    e.token(), e.mode(), e.verdict(), e.total()));
        }
        timeline.sort(Comparator.comparingLong(Evidence.Event::atMicros));
        return timeline;
    }
}
