package fencing.lab.run;

import fencing.lab.common.CuttableBridge;
import fencing.lab.sink.Mode;
import fencing.lab.sink.SinkReport;
import fencing.lab.worker.Worker;
import fencing.lab.worker.WorkerReport;
import fencing.lab.sink.SinkServer;
import fencing.support.LoopbackPorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The processes one repeat needs, started ahead of it: worker A, the sink server, and in the forged case writer C.
 *
 * <p>Starting a JVM that builds a jetcd client takes seconds, so the study starts the next
 * repeat's processes as soon as the current repeat's timed part is over (while it tears down), and
 * a repeat's clock starts only when its worker, already connected, is told to acquire. Starting
 * them earlier, during the pause, would put their start-up's CPU load on the critical path of a
 * two-core machine.
 */
public final class Prepared implements AutoCloseable {

    final int repeat;
    final Path dir;
    final String key;
    final int port;
    final LabProcess<WorkerReport> worker;
    /** C, which never holds the lock, in the forged case; {@code null} otherwise. */
    final LabProcess<WorkerReport> forger;
    /** A's only paths to etcd, one per endpoint, in a case that cuts A from etcd; empty otherwise. */
    private final List<CuttableBridge> aToEtcd;
    private final String classPath;
    private final String endpoints;
    private final CaseToRun toRun;
    private LabProcess<SinkReport> sink;
    private int sinkStarts;

    private Prepared(int repeat, Path dir, String key, int port, LabProcess<WorkerReport> worker, LabProcess<WorkerReport> forger,
                     List<CuttableBridge> aToEtcd, LabProcess<SinkReport> sink, String classPath, String endpoints, CaseToRun toRun) {
        this.repeat = repeat;
        this.forger = forger;
        this.aToEtcd = aToEtcd;
        this.endpoints = endpoints;
        this.dir = dir;
        this.key = key;
        this.port = port;
        this.worker = worker;
        this.sink = sink;
        this.classPath = classPath;
        this.toRun = toRun;
        this.sinkStarts = 1;
    }

    /** Starts worker A and the sink server for {@code repeat}, in {@code dir}; returns at once. */
    public static Prepared start(int repeat, Path dir, CaseToRun toRun, String endpoints, long ttlSeconds, String classPath) {
        int port = LoopbackPorts.reserve();
        String key = fencing.support.Etcd.uniqueKey("lab-" + toRun.labCase().name() + "-repeat-" + repeat);
        LabProcess<SinkReport> sink = startSink(dir, port, toRun, classPath, endpoints, key, "sink-server.log");
        LabProcess<WorkerReport> worker = null;
        LabProcess<WorkerReport> forger = null;
        List<CuttableBridge> aToEtcd = List.of();
        try {
            // A reaches etcd through bridges the run can cut, and the sink directly, so that a cut parts A from etcd alone.
            aToEtcd = toRun.labCase().cutsAFromEtcd() ? CuttableBridge.toEach(endpoints) : List.of();
            String aEndpoints = aToEtcd.isEmpty() ? endpoints : CuttableBridge.endpoints(aToEtcd);
            worker = LabProcess.start("worker A", WorkerReport.class, Prepared::workerFailure, classPath, Worker.class, List.of(
                    "--name", "A", "--endpoints", aEndpoints, "--key", key, "--ttl", Long.toString(ttlSeconds),
                    "--sink", "http://127.0.0.1:" + port), dir.resolve("worker-A.log"));
            if (toRun.labCase().forgesToken()) {
                forger = LabProcess.start("writer C", WorkerReport.class, Prepared::workerFailure, classPath, Worker.class, List.of(
                        "--name", "C", "--endpoints", endpoints, "--key", key, "--forged-token", Long.toString(LabCase.FORGED_TOKEN),
                        "--sink", "http://127.0.0.1:" + port), dir.resolve("writer-C.log"));
            }
        } catch (RuntimeException e) {
            try {
                if (worker != null) {
                    worker.close();
                }
            } finally {
                CuttableBridge.closeAll(aToEtcd);
                sink.close();
            }
            throw e;
        }
        return new Prepared(repeat, dir, key, port, worker, forger, aToEtcd, sink, classPath, endpoints, toRun);
    }

    private static LabProcess<SinkReport> startSink(Path dir, int port, CaseToRun toRun, String classPath, String endpoints, String key,
                                                    String logName) {
        List<String> args = new ArrayList<>(List.of("--dir", dir.resolve("sink").toString(), "--port", Integer.toString(port),
                "--fenced-sink", toRun.labCase().fencedSink().label()));
        if (toRun.modes().contains(Mode.CURRENT_OWNER)) {
            args.addAll(List.of("--etcd-endpoints", endpoints, "--lock-key", key));
        }
        return LabProcess.start("sink server", SinkReport.class, Prepared::sinkFailure, classPath, SinkServer.class, args, dir.resolve(logName));
    }

    private static Optional<String> workerFailure(WorkerReport report) {
        return report instanceof WorkerReport.Failed failed ? Optional.of(failed.message() + " (" + failed.exception() + ")") : Optional.empty();
    }

    private static Optional<String> sinkFailure(SinkReport report) {
        return report instanceof SinkReport.Failed failed ? Optional.of(failed.message() + " (" + failed.exception() + ")") : Optional.empty();
    }

    /** Returns worker A's process. */
    public LabProcess<WorkerReport> worker() {
        return worker;
    }

    /** Returns writer C's process in the forged case, or {@code null}. */
    public LabProcess<WorkerReport> forger() {
        return forger;
    }

    /** Returns the sink server's process, the restarted one after a restart. */
    public LabProcess<SinkReport> sink() {
        return sink;
    }

    public URI sinkUri() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /**
     * Cuts A's paths to etcd, leaving its path to the sink open: A runs on, and its keepalives go unanswered.
     *
     * @throws IllegalStateException if the case does not reach etcd from A through bridges
     */
    void cutAFromEtcd() {
        if (aToEtcd.isEmpty()) {
            throw new IllegalStateException("A reaches etcd directly in the " + toRun.labCase().name() + " case: there is no path to cut");
        }
        aToEtcd.forEach(CuttableBridge::cut);
    }

    /** Kills the sink server with SIGKILL and starts a new one over the same files and port; returns at once. */
    public LabProcess<SinkReport> restartSink() {
        sink.kill();
        sinkStarts++;
        sink = startSink(dir, port, toRun, classPath, endpoints, key, "sink-server-" + sinkStarts + ".log");
        return sink;
    }

    /** Kills the sink server with SIGKILL, replaces its files by those in {@code backup}, and starts a new one; returns at once. */
    LabProcess<SinkReport> restoreSink(Path backup) {
        sink.kill();
        Path files = dir.resolve("sink");
        try {
            fencing.support.FileTrees.delete(files);
            fencing.support.FileTrees.copy(backup, files);
        } catch (IOException e) {
            throw new UncheckedIOException("could not restore the sink's files from " + backup, e);
        }
        sinkStarts++;
        sink = startSink(dir, port, toRun, classPath, endpoints, key, "sink-server-" + sinkStarts + ".log");
        return sink;
    }

    @Override
    public void close() {
        try {
            worker.close();
        } finally {
            try {
                if (forger != null) {
                    forger.close();
                }
            } finally {
                try {
                    sink.close();
                } finally {
                    CuttableBridge.closeAll(aToEtcd);
                }
            }
        }
    }
}
