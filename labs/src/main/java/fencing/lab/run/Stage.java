package fencing.lab.run;

import fencing.lab.sink.Mode;
import fencing.lab.sink.SinkClient;
import io.etcd.jetcd.Client;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * What a case's {@link Step}s act on, once B holds the lock and A is frozen: the repeat's processes, B, the clients of
 * the sink, the restore's state and the journal every step appends to.
 */
public final class Stage {

    private final CaseToRun toRun;
    private final Prepared prepared;
    private final Journal journal;
    private final HolderB holderB;
    private final Lineage lineage;
    private final Client etcd;
    private final SinkClient asB;
    private final SinkClient asRunner;
    private final BiConsumer<String, Object[]> progress;

    Stage(CaseToRun toRun, Prepared prepared, Journal journal, HolderB holderB, Lineage lineage, Client etcd,
          BiConsumer<String, Object[]> progress) {
        this.etcd = etcd;
        this.toRun = toRun;
        this.prepared = prepared;
        this.journal = journal;
        this.holderB = holderB;
        this.lineage = lineage;
        this.asB = new SinkClient(prepared.sinkUri(), "B");
        this.asRunner = new SinkClient(prepared.sinkUri(), "runner");
        this.progress = progress;
    }

    public Prepared prepared() {
        return prepared;
    }

    public Journal journal() {
        return journal;
    }

    public HolderB holderB() {
        return holderB;
    }

    public Lineage lineage() {
        return lineage;
    }

    /** The runner's client of the lab's etcd, e.g. to ask it about A's lease; every call on it needs a bound. */
    public Client etcd() {
        return etcd;
    }

    /** The sink's client that writes as B. */
    public SinkClient asB() {
        return asB;
    }

    /** The sink's client of the runner: reads and controls. */
    public SinkClient asRunner() {
        return asRunner;
    }

    /** Returns those of {@code modes} this run serves: a case's current-owner mode is left out where Part 4 is not written. */
    public List<Mode> active(List<Mode> modes) {
        return modes.stream().filter(toRun.modes()::contains).toList();
    }

    /** Prints a progress line, e.g. what the case is about to show. */
    public void progress(String format, Object... args) {
        progress.accept(format, args);
    }
}
