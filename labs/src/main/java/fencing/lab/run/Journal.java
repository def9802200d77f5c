package fencing.lab.run;

import fencing.lab.common.Times;
import fencing.lab.sink.Exchange;
import fencing.lab.worker.WorkerReport;
import fencing.support.evidence.Evidence;
import fencing.support.evidence.Evidence.About;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One repeat's journal: every event and every exchange with the sink, appended in order by the runner's steps and from
 * the workers' and the sink server's reports, from several threads; the judge and the evidence are read from it alone.
 */
public final class Journal {

    private final List<Evidence.Event> events = new ArrayList<>();
    private final List<Exchange> exchanges = new ArrayList<>();
    private volatile Long start;
    private WorkerReport.TimerChecked aTimer;
    private EtcdLease etcdLease;

    /**
     * etcd's view of A's lease, asked by the runner.
     *
     * @param ttlLeftSeconds etcd's time-to-live for the lease, in whole seconds; -1 when etcd has no such lease
     */
    public record EtcdLease(long leaseId, long atMicros, long ttlLeftSeconds) {
    }

    void start(long atMicros) {
        this.start = atMicros;
    }

    public long start() {
        if (start == null) {
            throw new IllegalStateException("the repeat's timeline has not started yet");
        }
        return start;
    }

    /** Records an event that is about nothing beyond its words. */
    public void add(Lane lane, EventKind kind, long atMicros, String label, String detail) {
        add(lane, kind, atMicros, label, detail, About.NOTHING);
    }

    /** Records an event and what it is about; {@code label} and {@code detail} are for people, {@code about} for the judge. */
    public synchronized void add(Lane lane, EventKind kind, long atMicros, String label, String detail, About about) {
        events.add(new Evidence.Event(lane, kind, atMicros, Times.millis(atMicros - start()), label, detail, about));
    }

    /** Records an exchange with the sink, as its sender saw it. */
    public synchronized void exchange(Exchange exchange) {
        exchanges.add(exchange);
    }

    /** Records A's reading of its own lease timer. */
    public synchronized void aTimer(WorkerReport.TimerChecked reading) {
        this.aTimer = reading;
    }

    /** Records etcd's view of A's lease. */
    public synchronized void etcdLease(EtcdLease view) {
        this.etcdLease = view;
    }

    /** Returns A's timer and etcd's view side by side, at A's check; {@code null} where A checked no timer or etcd was not asked. */
    synchronized Evidence.Clocks clocks() {
        if (aTimer == null || etcdLease == null) {
            return null;
        }
        double aClockMillis = Times.millis(aTimer.localElapsedMicros());
        return new Evidence.Clocks(aTimer.clockRate(), aTimer.atMicros(), Times.millis(aTimer.realElapsedMicros()), aClockMillis,
                aTimer.ttlMillis() - aClockMillis, aTimer.saysValid(), etcdLease.atMicros(), etcdLease.ttlLeftSeconds());
    }

    /** Returns the events in time order. */
    synchronized List<Evidence.Event> timeline() {
        List<Evidence.Event> timeline = new ArrayList<>(events);
        timeline.sort(Comparator.comparingLong(Evidence.Event::atMicros));
        return List.copyOf(timeline);
    }

    /** Returns every exchange with the sink, in the order the requests were sent. */
    synchronized List<Exchange> exchanges() {
        List<Exchange> sent = new ArrayList<>(exchanges);
        sent.sort(Comparator.comparingLong(Exchange::sentAtMicros));
        return List.copyOf(sent);
    }
}
