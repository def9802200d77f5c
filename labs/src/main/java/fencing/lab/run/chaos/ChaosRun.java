package fencing.lab.run.chaos;

import fencing.lab.common.CuttableBridge;
import fencing.lab.run.Calls;
import fencing.lab.run.LabProcess;
import fencing.lab.common.Times;
import fencing.lab.history.History;
import fencing.lab.history.HistoryChecker;
import fencing.lab.history.HistoryLine;
import fencing.lab.sink.Exchange;
import fencing.lab.sink.Mode;
import fencing.support.evidence.SinkReply;
import fencing.lab.sink.SinkClient;
import fencing.lab.sink.SinkReport;
import fencing.lab.sink.SinkServer;
import fencing.lab.worker.ChaosWorker;
import fencing.lab.worker.WorkerCommand;
import fencing.lab.worker.WorkerReport;
import fencing.support.Etcd;
import fencing.support.LoopbackPorts;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The chaos run: N writer JVMs loop on one lock against one sink server while the {@link Nemesis} freezes them or cuts them
 * off from etcd; the merged history is checked.
 *
 * <p>With {@link Fault#PARTITION} among the faults, each writer reaches etcd only through {@link CuttableBridge}s of its own,
 * one per endpoint, and the sink directly, so that a cut parts that writer from etcd alone. Writes {@code history.jsonl} (the format is in {@code labs/README.md}) and each writer's log and own
 * record under {@code chaos/}; the caller writes the reports from the returned {@link Result}.
 */
public final class ChaosRun {

    /** The title of its report. */
    public static final String TITLE = "Many writers, random freezes, a checked history";

    private boolean currentOwner = true;

    /** How many values a writer writes to every mode per hold. */
    static final int VALUES_PER_HOLD = 3;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    /**
     * What the run did: its options, the nemesis's actions, the history file, the checker's findings and the judgement.
     *
     * @param freezes    how many times the nemesis froze a writer
     * @param partitions how many times it cut a writer off from etcd
     */
    public record Result(int writers, long durationSeconds, long seed, long ttlSeconds, Map<String, String> sinks, long startedAtMicros,
                         long endedAtMicros, String history, HistoryChecker.Findings findings, int freezes, int partitions,
                         double writesPerSecond, List<String> differences) {

        /** Returns whether the run ended as the chaos case expects. */
        public boolean pass() {
            return differences.isEmpty();
        }
    }

    private final int writers;
    private final long durationSeconds;
    private final long seed;
    private final Set<Fault> faults;
    private final long ttlSeconds;
    private final Path dir;
    private final String classPath;
    private final PrintWriter say;

    /** Prepares a run as {@code plan} asks, its writers holding leases of {@code ttlSeconds}, into {@code dir}. */
    public ChaosRun(ChaosPlan plan, long ttlSeconds, Path dir, String classPath, PrintWriter say) {
        this.writers = plan.writers();
        this.durationSeconds = plan.seconds();
        this.seed = plan.seed();
        this.faults = plan.faults();
        this.ttlSeconds = ttlSeconds;
        this.dir = dir;
        this.classPath = classPath;
        this.say = say;
    }

    /** Returns this run without the current-owner mode, for classes where Part 4 is not written yet. */
    public ChaosRun withoutCurrentOwner() {
        this.currentOwner = false;
        return this;
    }

    /** Runs it against {@code etcd}; every process it starts is ended before it returns or throws. */
    public Result run(Etcd etcd) throws InterruptedException {
        Path work = dir.resolve("chaos");
        String key = Etcd.uniqueKey("lab-chaos");
        Map<String, LabProcess<?>> processes = new LinkedHashMap<>();
        Map<String, LabProcess<WorkerReport>> workers = new LinkedHashMap<>();
        Map<String, List<CuttableBridge>> toEtcd = new LinkedHashMap<>();
        LabProcess<SinkReport> sink = null;
        try {
            Files.createDirectories(work);
            int port = LoopbackPorts.reserve();
            List<String> sinkArgs = new java.util.ArrayList<>(List.of("--dir", work.resolve("sink").toString(), "--port", Integer.toString(port)));
            if (currentOwner) {
                sinkArgs.addAll(List.of("--etcd-endpoints", etcd.endpoints(), "--lock-key", key));
            }
            sink = LabProcess.start("sink server", SinkReport.class, r -> r instanceof SinkReport.Failed f ? Optional.of(f.message()) : Optional.empty(),
                    classPath, SinkServer.class, sinkArgs, work.resolve("sink-server.log"));
            URI sinkUri = URI.create("http://127.0.0.1:" + port);
            for (int i = 1; i <= writers; i++) {
                String name = "w" + i;
                if (faults.contains(Fault.PARTITION)) {
                    toEtcd.put(name, CuttableBridge.toEach(etcd.endpoints()));
                }
                String endpoints = toEtcd.containsKey(name) ? CuttableBridge.endpoints(toEtcd.get(name)) : etcd.endpoints();
                LabProcess<WorkerReport> worker = LabProcess.start("writer " + name, WorkerReport.class,
                        r -> r instanceof WorkerReport.Failed f ? Optional.of(f.message() + " (" + f.exception() + ")") : Optional.empty(), classPath,
                        ChaosWorker.class, List.of("--name", name, "--endpoints", endpoints, "--key", key, "--ttl", Long.toString(ttlSeconds),
                                "--sink", sinkUri.toString(), "--history", work.resolve(name + ".jsonl").toString()), work.resolve(name + ".log"));
                workers.put(name, worker);
                processes.put(name, worker);
            }
            sink.await(SinkReport.Listening.class, START_TIMEOUT);
            Exchange health = new SinkClient(sinkUri, "runner").call("GET", "/health", null);
            Calls.requireOk(health, "the sink server's health");
            Map<String, String> sinks = new LinkedHashMap<>(health.reply(SinkReply.Health.class).modes());
            List<Mode> modes = sinks.keySet().stream().map(Mode::of).toList();
            for (LabProcess<WorkerReport> worker : workers.values()) {
                worker.await(WorkerReport.Started.class, START_TIMEOUT);
            }
            long start = Times.nowMicros();
            long until = start + durationSeconds * 1_000_000L;
            say.printf(Locale.ROOT, "%d writers loop on lock %s for %d s, writing %d values to each of %s per hold; nemesis seed %d, faults %s%s%n",
                    writers, key, durationSeconds, VALUES_PER_HOLD, modes, seed, Fault.spell(faults),
                    toEtcd.isEmpty() ? "" : "; each writer reaches etcd through bridges of its own, the sink directly");
            say.flush();
            for (LabProcess<WorkerReport> worker : workers.values()) {
                worker.send(new WorkerCommand.Loop(until, VALUES_PER_HOLD, modes));
            }
            Nemesis nemesis = new Nemesis(seed, ttlSeconds, faults, processes, toEtcd);
            nemesis.runUntil(until);
            // A writer thawed at the end finishes its hold first: its last writes may come a hold's length late.
            Duration finishing = Duration.ofSeconds(ttlSeconds * 3 + 30);
            for (Map.Entry<String, LabProcess<WorkerReport>> worker : workers.entrySet()) {
                WorkerReport.Bye bye = worker.getValue().await(WorkerReport.Bye.class, finishing);
                say.println("  " + worker.getKey() + ": " + bye.reason());
            }
            long end = Times.nowMicros();
            Path history = dir.resolve("history.jsonl");
            merge(history, modes, nemesis.actions(), work);
            HistoryChecker.Findings findings = HistoryChecker.check(history);
            int total = findings.modes().values().stream().mapToInt(HistoryChecker.ModeFindings::writes).sum();
            double perSecond = Math.round(total / ((end - start) / 1e6) * 10) / 10.0;
            return new Result(writers, durationSeconds, seed, ttlSeconds, sinks, start, end, history.toString(), findings,
                    nemesis.count(Fault.FREEZE), nemesis.count(Fault.PARTITION), perSecond, judge(findings));
        } catch (IOException e) {
            throw new UncheckedIOException("the chaos run could not write in " + work, e);
        } finally {
            RuntimeException failure = null;
            for (LabProcess<?> process : processes.values()) {
                try {
                    process.close();
                } catch (RuntimeException e) {
                    failure = failure == null ? e : failure;
                }
            }
            try {
                if (sink != null) {
                    sink.close();
                }
            } finally {
                // Last, once no writer is left to use them, and whatever failed before.
                toEtcd.values().forEach(CuttableBridge::closeAll);
            }
            if (failure != null) {
                throw failure;
            }
        }
    }

    /** The chaos case's expectation: a history that can be judged, and every mode within its contract (plain has none to break). */
    static List<String> judge(HistoryChecker.Findings findings) {
        List<String> differences = new ArrayList<>();
        findings.problems().forEach(p -> differences.add("the history cannot be judged (unknown): " + p));
        for (HistoryChecker.ModeFindings mode : findings.modes().values()) {
            if (!mode.complete()) {
                differences.add(mode.mode().text() + ": " + mode.noVerdict() + " writes got no verdict, so the mode is unknown");
            }
            if (mode.violations() > 0) {
                differences.add(String.format(Locale.ROOT, "%s: accepted %d stale writes, lost %d updates and accepted %d writes of expired holders;"
                        + " it %s", mode.mode().text(), mode.staleAccepted(), mode.lostUpdates(), mode.expiredHolderAccepted(), mode.contract().promise()));
            }
        }
        return differences;
    }

    /** Writes the header, every writer's lines and the nemesis's in time order, the writers' closing lines, and the end line. */
    private void merge(Path history, List<Mode> modes, List<HistoryLine.Fault> actions, Path work) throws IOException {
        List<HistoryLine.Timed> lines = new ArrayList<>();
        List<HistoryLine.WriterEnd> closing = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= writers; i++) {
            names.add("w" + i);
            Path own = work.resolve("w" + i + ".jsonl");
            if (!Files.exists(own)) {
                continue;
            }
            for (String text : Files.readAllLines(own, StandardCharsets.UTF_8)) {
                HistoryLine line = HistoryLine.parse(text);
                if (line instanceof HistoryLine.WriterEnd end) {
                    closing.add(end);
                } else if (line instanceof HistoryLine.Timed timed) {
                    lines.add(timed);
                } else {
                    throw new IllegalStateException(own + " holds a line only the runner writes: " + text);
                }
            }
        }
        lines.addAll(actions);
        lines.sort(Comparator.comparingLong(HistoryLine.Timed::timeMicros));
        List<HistoryLine> all = new ArrayList<>();
        all.add(new HistoryLine.Header(History.FORMAT, "chaos", seed, durationSeconds, ttlSeconds * 1000, VALUES_PER_HOLD, names, modes));
        all.addAll(lines);
        all.addAll(closing);
        all.add(new HistoryLine.End(lines.stream().filter(HistoryLine.Write.class::isInstance).count()));
        try (BufferedWriter out = Files.newBufferedWriter(history, StandardCharsets.UTF_8)) {
            for (HistoryLine line : all) {
                out.write(line.json());
                out.newLine();
            }
        }
    }
}
