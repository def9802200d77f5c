package fencing.lab.run;

import java.util.function.Predicate;
import fencing.lab.sink.Mode;
import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import fencing.lab.sink.Exchange;
import java.util.List;

/**
 * What a repeat left behind, for the judge and for a case's own {@link LabCase#check}.
 *
 * @param calls  every call to the sink, by A, B and the runner, in the order they were sent
 * @param expiry how A's key was seen gone, or {@code null}
 * @param events the timeline, in time order
 * @param clocks A's timer and etcd's view of A's lease at A's own check, or {@code null} where A checked no timer
 */
public record Outcome(Evidence.Holder a, Evidence.Holder b, List<Exchange> calls, Evidence.Expiry expiry, List<Evidence.Event> events,
                      Evidence.Clocks clocks) {

    /** An outcome where A checked no timer of its own. */
    public Outcome(Evidence.Holder a, Evidence.Holder b, List<Exchange> calls, Evidence.Expiry expiry, List<Evidence.Event> events) {
        this(a, b, calls, expiry, events, null);
    }

    /** An outcome of the sink's calls only, without the expiry and the timeline. */
    public Outcome(Evidence.Holder a, Evidence.Holder b, List<Exchange> calls) {
        this(a, b, calls, null, List.of());
    }

    /** Returns the first event of {@code kind} on {@code lane}, or {@code null}. */
    public Evidence.Event event(Evidence.Lane lane, EventKind kind) {
        return events.stream().filter(e -> e.lane() == lane && e.kind() == kind).findFirst().orElse(null);
    }

    /** Returns the first write {@code from} sent to {@code mode}, or {@code null}. */
    public Exchange write(Holder from, Mode mode) {
        return write(from.name(), mode);
    }

    /** Returns the first write {@code from}, e.g. {@code C3} in the restore case, sent to {@code mode}, or {@code null}. */
    public Exchange write(String from, Mode mode) {
        return calls.stream().filter(c -> c.from().equals(from) && c.isWrite() && c.mode() == mode).findFirst().orElse(null);
    }

    /** Returns the runner's last read of {@code mode}. */
    public Exchange finalRead(Mode mode) {
        return lastRead(c -> c.mode() == mode, mode.text());
    }

    /** Returns the runner's last read of {@code ledger}. */
    public Exchange finalRead(String ledger) {
        return lastRead(c -> ledger.equals(c.ledger()), ledger);
    }

    private Exchange lastRead(Predicate<Exchange> of, String what) {
        Exchange last = null;
        for (Exchange call : calls) {
            if (call.from().equals("runner") && call.method().equals("GET") && of.test(call)) {
                last = call;
            }
        }
        if (last == null) {
            throw new IllegalStateException("no final read of " + what);
        }
        return last;
    }
}
