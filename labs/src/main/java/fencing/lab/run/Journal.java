package fencing.lab.run;

import fencing.lab.common.Times;
import fencing.lab.sink.Exchange;
import fencing.lab.sink.Mode;
import fencing.lab.worker.WorkerReport;
import fencing.support.evidence.Evidence;
import fencing.support.evidence.Evidence.Kind;
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

    /**
     * What an event is about beyond its words, as {@link Evidence.Event}'s fields of the same names: a token, and where a write
     * or a request was answered, the verdict and the state after it. Each factory is one shape an event takes.
     */
    public record About(Long token, String mode, String verdict, Long total, String value, Long mark, String from) {

        /** Nothing beyond the event's words, e.g. a keepalive. */
        public static final About NOTHING = new About(null, null, null, null, null, null, null);

        /** A token, or the revision that is one, e.g. the lock key's create revision at an acquisition. */
        public static About token(long token) {
            return new About(token, null, null, null, null, null, null);
        }

        /** A write with {@code token} to the sink's {@code mode}, and its verdict as its writer heard it, or {@code null} before one. */
        public static About write(long token, Mode mode, String verdict) {
            return new About(token, mode.text(), verdict, null, null, null, null);
        }

        /** A request with {@code token} to the ledger {@code ledger}, before any answer. */
        public static About ledgerRequest(long token, String ledger) {
            return new About(token, ledger, null, null, null, null, null);
        }

        /** The sink's verdict on {@code from}'s write with {@code token} to {@code mode}, and the mode's value and mark after it. */
        public static About sinkVerdict(long token, String mode, String verdict, String value, long mark, String from) {
            return new About(token, mode, verdict, null, value, mark, from);
        }

        /** A ledger's verdict on {@code from}'s request with {@code token}, and the ledger's total and mark after it. */
        public static About ledgerVerdict(long token, String ledger, String verdict, long total, long mark, String from) {
            return new About(token, ledger, verdict, total, null, mark, from);
        }
    }

    /** Records an event that is about nothing beyond its words. */
    public void add(Lane lane, Kind kind, long atMicros, String label, String detail) {
        add(lane, kind, atMicros, label, detail, About.NOTHING);
    }

    /** Records an event and what it is about; {@code label} and {@code detail} are for people, {@code about} for the judge. */
    public synchronized void add(Lane lane, Kind kind, long atMicros, String label, String detail, About about) {
        events.add(new Evidence.Event(lane, kind, atMicros, Times.millis(atMicros - start()), label, detail, about.token(), about.mode(),
                about.verdict(), about.total(), about.value(), about.mark(), about.from()));
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
