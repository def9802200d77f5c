package fencing.lab;

import fencing.lab.report.Evidence;
import fencing.lab.report.Reports;
import fencing.lab.report.Tables;
import fencing.lab.report.ChaosReport;
import fencing.lab.run.Cases;
import fencing.lab.run.ChaosRun;
import fencing.lab.run.LabCase;
import fencing.lab.run.Prepared;
import fencing.lab.run.RepeatRun;
import fencing.lab.run.StudyCase;
import fencing.support.Etcd;
import fencing.support.EtcdCluster;
import fencing.support.RestorableEtcd;
import fencing.support.FileTrees;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The lab's runner: the late-write experiment for real, with a real etcd, real processes, a real pause and a real sink.
 *
 * <p>Each repeat: worker A (its own JVM) takes the lock with {@code EtcdLockService} and keeps its
 * lease alive; the runner freezes A with SIGSTOP, watches the lock key until etcd deletes it, lets B
 * take the lock and write {@code B-current}, resumes A with SIGCONT, and A writes {@code A-late}
 * with its old token. The plain sink takes A's write; the fenced and current-owner sinks reject it. The evidence goes
 * to {@code evidence.json}, {@code report.md} and {@code report.html} in the out directory.
 */
@Command(name = "study", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Runs the late-write experiment for real: a real etcd, worker A in its own JVM frozen with SIGSTOP until its",
            "lease expires, B taking the lock, and A's late write to plain, fenced and current-owner SQLite sinks behind HTTP.",
            "Other cases: a forged token, a retried request and more (see --case)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every repeat ended as the case expects",
            "1:a repeat ended otherwise; the output names what differed",
            "2:the options were wrong",
            "3:the study could not run (etcd, a process or the sink failed)"})
public final class Study implements Callable<Integer> {

    /** The lease's time to live: etcd raises anything shorter to 2 s unless its election timeout is lowered. */
    static final long TTL_SECONDS = 2;
    static final int EXIT_DIFFERED = 1;
    static final int EXIT_COULD_NOT_RUN = 3;
    private static final int MAX_REPEATS = 1000;
    /** Said at once where the lab cannot run, instead of failing at A's first freeze. */
    static final String WINDOWS = "The lab cannot run on Windows: it freezes worker A with SIGSTOP and resumes it with SIGCONT,"
            + " which Windows does not have. Run it on Linux or macOS, or on Windows inside WSL."
            + " The exercises and their tests run anywhere Java runs.";

    @Option(names = "--repeats", defaultValue = "1", paramLabel = "N",
            description = "How many times to run the experiment, one after another (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--out", defaultValue = "build/my-fence-study", paramLabel = "DIR",
            description = "Where evidence.json, report.md, report.html and each repeat's logs and databases go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--case", defaultValue = "late-write", paramLabel = "CASE", converter = CaseConverter.class,
            description = "late-write (default), pre-contact, restart, check-outside-transaction, restore, failover, forged, retry or chaos.")
    LabCase studyCase;

    @Option(names = "--writers", paramLabel = "N", description = "chaos only: how many writer JVMs loop on the lock (default: 4).")
    Integer writers;

    @Option(names = "--duration", paramLabel = "S", description = "chaos only: how many seconds the writers loop (default: 30).")
    Long duration;

    @Option(names = "--seed", paramLabel = "X", description = "chaos only: the nemesis's seed, to replay a run's faults (default: a random one, printed).")
    Long seed;

    @Option(names = "--child-class-path", hidden = true,
            description = "The class path of worker A and the sink server; default: this JVM's own.")
    String childClassPath;

    @Spec
    CommandSpec spec;

    /** Runs the study; see {@code --help}. */
    public static void main(String[] args) {
        if (System.getProperty("os.name", "").startsWith("Windows")) {
            System.err.println(WINDOWS);
            System.exit(EXIT_COULD_NOT_RUN);
        }
        System.exit(commandLine().execute(args));
    }

    /** Returns the study's command line, on which an unexpected failure exits with 3, not 1 (which means "differed"). */
    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new Study());
        commandLine.setExecutionExceptionHandler((failure, line, parsed) -> {
            line.getErr().println("The study could not run: " + describe(failure));
            failure.printStackTrace(line.getErr());
            line.getErr().flush();
            return EXIT_COULD_NOT_RUN;
        });
        return commandLine;
    }

    @Override
    public Integer call() {
        if (repeats < 1 || repeats > MAX_REPEATS) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--repeats must be between 1 and " + MAX_REPEATS + ", got " + repeats);
        }
        PrintWriter say = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path dir = out.toAbsolutePath().normalize();
        String classPath = childClassPath != null ? childClassPath : System.getProperty("java.class.path");
        if (!(studyCase instanceof StudyCase declared)) {
            return chaos(dir, classPath, say, err);
        }
        StudyCase abCase = declared.onTheClassesAtHand(classPath);
        if (writers != null || duration != null || seed != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--writers, --duration and --seed apply to --case chaos only");
        }
        prepareOutDir(dir);
        String startedAt = Instant.now().toString();
        say.printf(Locale.ROOT, "Fencing study · case %s (%s) · %d repeat%s · lease TTL %d s · out %s%n",
                studyCase.name(), studyCase.title(), repeats, repeats == 1 ? "" : "s", TTL_SECONDS, dir);
        if (abCase != declared) {
            say.println("current-owner mode left out: Part 4 (OwnerCheckingSink, EtcdOwnerCheck) is not written yet; "
                    + "this case runs plain and fenced");
        }
        say.flush();
        List<Evidence.Repeat> done = new ArrayList<>();
        String error = null;
        String etcdOrigin = "(not started)";
        Prepared next = null;
        RestorableEtcd restorable = null;
        EtcdCluster cluster = null;
        try {
            // A case that stops and restores etcd gets one of its own: the shared one may be a cluster the kit does not own.
            restorable = abCase.restoresEtcd() ? RestorableEtcd.start() : null;
            // A case that kills etcd's leader gets a three-member cluster of its own, for the same reason.
            cluster = abCase.failsOverLeader() ? EtcdCluster.start(3) : null;
            Etcd shared = restorable == null && cluster == null ? Etcd.shared() : null;
            String endpoints = restorable != null ? restorable.endpoints() : cluster != null ? cluster.endpoints() : shared.endpoints();
            etcdOrigin = restorable != null ? restorable.toString() : cluster != null ? cluster.toString() : shared.toString();
            say.println("etcd: " + etcdOrigin);
            for (EtcdCluster.Member member : cluster == null ? List.<EtcdCluster.Member>of() : cluster.members()) {
                say.printf(Locale.ROOT, "  %s: pid %d, %s, data in %s%n", member.name(), cluster.pid(member.name()), member.clientUrl(), cluster.dir(member.name()));
            }
            if (restorable != null) {
                say.println("restore: " + RestorableEtcd.restoreTool().map(tool -> "from a snapshot with " + tool)
                        .orElse("no etcdutl or etcdctl on PATH: etcd comes back as a replacement cluster with an empty data directory"));
            }
            RestorableEtcd ownEtcd = restorable;
            EtcdCluster ownCluster = cluster;
            try (Client client = restorable != null ? restorable.newClient() : cluster != null ? cluster.newClient() : shared.newClient()) {
                // Connect, and run a read-only Txn like tryAcquire's, so that B's first acquire costs round trips, not a start-up.
                ByteSequence warmUp = ByteSequence.from(Etcd.uniqueKey("lab-warm-up"), StandardCharsets.UTF_8);
                client.getKVClient().txn().If(new Cmp(warmUp, Cmp.Op.EQUAL, CmpTarget.version(0)))
                        .Then(Op.get(warmUp, GetOption.DEFAULT)).commit().get(5, TimeUnit.SECONDS);
                next = Prepared.start(1, repeatDir(dir, 1), abCase, endpoints, TTL_SECONDS, classPath);
                for (int i = 1; i <= repeats; i++) {
                    Prepared current = next;
                    next = null;
                    int following = i + 1;
                    Prepared[] ahead = new Prepared[1];
                    try {
                        Evidence.Repeat repeat = new RepeatRun(abCase, client, ownEtcd, TTL_SECONDS, say, current, repeats).onCluster(ownCluster).run(() -> {
                            if (following <= repeats) {
                                ahead[0] = Prepared.start(following, repeatDir(dir, following), abCase, endpoints, TTL_SECONDS, classPath);
                            }
                        });
                        done.add(repeat);
                        Tables.printRepeat(say, repeat);
                    } finally {
                        next = ahead[0];
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = "interrupted";
        } catch (Exception e) {
            error = describe(e);
            writeStackTrace(dir, e);
        } finally {
            try {
                if (next != null) {
                    next.close();
                }
            } finally {
                try {
                    if (restorable != null) {
                        restorable.close();
                    }
                } finally {
                    if (cluster != null) {
                        cluster.close();
                    }
                }
            }
        }
        Evidence.Study evidence = evidence(abCase, startedAt, etcdOrigin, done, error);
        Reports.write(dir, evidence);
        Tables.printSummary(say, evidence, dir);
        if (error != null) {
            err.println("The study could not finish: " + error);
            err.println("(details in " + dir.resolve("study-error.log") + ")");
            err.flush();
            return EXIT_COULD_NOT_RUN;
        }
        return evidence.summary().failed() == 0 ? 0 : EXIT_DIFFERED;
    }

    private int chaos(Path dir, String classPath, PrintWriter say, PrintWriter err) {
        int n = writers == null ? 4 : writers;
        long seconds = duration == null ? 30 : duration;
        if (n < 2 || n > 16) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--writers must be between 2 and 16, got " + n);
        }
        if (seconds < 1 || seconds > 3600) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--duration must be between 1 and 3600 seconds, got " + seconds);
        }
        if (repeats != 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--case chaos runs once: leave out --repeats, and use --duration for a longer run");
        }
        long chosen = seed != null ? seed : new java.security.SecureRandom().nextLong();
        prepareOutDir(dir);
        say.printf(Locale.ROOT, "Fencing study · case chaos (%s) · %d writers · %d s · seed %d · lease TTL %d s · out %s%n",
                studyCase.title(), n, seconds, chosen, TTL_SECONDS, dir);
        say.flush();
        ChaosRun.Result result;
        try {
            Etcd etcd = Etcd.shared();
            say.println("etcd: " + etcd);
            ChaosRun run = new ChaosRun(n, seconds, chosen, TTL_SECONDS, dir, classPath, say);
            if (fencing.lab.run.Cases.extensionMissing(classPath).isPresent()) {
                say.println("current-owner mode left out: Part 4 (OwnerCheckingSink, EtcdOwnerCheck) is not written yet");
                run = run.withoutCurrentOwner();
            }
            result = run.run(etcd);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("The study could not finish: interrupted; replay with seed " + chosen);
            return EXIT_COULD_NOT_RUN;
        } catch (RuntimeException e) {
            writeStackTrace(dir, e);
            err.println("The study could not finish: " + describe(e) + "; replay with seed " + chosen);
            err.println("(details in " + dir.resolve("study-error.log") + ")");
            err.flush();
            return EXIT_COULD_NOT_RUN;
        }
        ChaosReport.write(dir, result);
        for (var mode : result.findings().modes().values()) {
            say.printf(Locale.ROOT, "  %-14s %6d writes, %6d accepted: stale writes accepted %d, lost updates %d, expired-holder writes accepted %d%s%n",
                    mode.mode(), mode.writes(), mode.accepted(), mode.staleAccepted(), mode.lostUpdates(), mode.expiredHolderAccepted(),
                    mode.complete() ? "" : " (incomplete: unknown)");
        }
        result.findings().problems().forEach(p -> say.println("  cannot judge the history: " + p));
        say.printf(Locale.ROOT, "%.1f recorded writes per second, %d freezes. %s%n", result.writesPerSecond(), result.freezes(),
                result.pass() ? "As expected: the fenced sink accepted no stale write." : "NOT as expected: " + String.join("; ", result.differences()));
        say.println("history:  " + result.history() + "   (./kit check-history " + result.history() + ")");
        say.println("reports:  " + dir.resolve("report.md") + "  " + dir.resolve("report.html"));
        say.println("replay:   " + ChaosReport.replay(result));
        say.flush();
        return result.pass() ? 0 : EXIT_DIFFERED;
    }

    private Evidence.Study evidence(StudyCase abCase, String startedAt, String etcdOrigin, List<Evidence.Repeat> done, String error) {
        List<Double> a = new ArrayList<>();
        List<Double> b = new ArrayList<>();
        List<Double> expiry = new ArrayList<>();
        for (Evidence.Repeat repeat : done) {
            if (repeat.figures().stopToFencedVerdictMinusTtlMillis() != null) {
                a.add(repeat.figures().stopToFencedVerdictMinusTtlMillis());
            }
            b.add(repeat.figures().repeatMinusTtlMillis());
            expiry.add(repeat.expiry().waitAfterStopMillis());
        }
        int passed = (int) done.stream().filter(Evidence.Repeat::pass).count();
        Evidence.Summary summary = new Evidence.Summary(done.size(), passed, done.size() - passed,
                Evidence.Stats.of(a), Evidence.Stats.of(b), Evidence.Stats.of(expiry));
        Map<String, String> sinks = Cases.implementations(abCase);
        return new Evidence.Study(Study.class.getName(), studyCase.name(), studyCase.title(),
                "A fenced sink rejects a write whose token is below the highest token it has accepted (its high-water mark);"
                        + " it accepts a token equal to or above it.",
                startedAt, Instant.now().toString(), TTL_SECONDS, repeats, etcdOrigin, Runtime.version().toString(),
                childClassPath == null ? "worker A and the sink server ran on the runner's class path" : "worker A and the sink server ran on --child-class-path",
                sinks, done, summary, error);
    }

    private static String describe(Throwable e) {
        StringBuilder text = new StringBuilder(Objects.toString(e.getMessage(), e.getClass().getName()));
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause.getMessage() != null && !text.toString().contains(cause.getMessage())) {
                text.append(" (").append(cause.getMessage()).append(')');
            }
        }
        return text.toString();
    }

    private static void writeStackTrace(Path dir, Exception e) {
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        try {
            Files.writeString(dir.resolve("study-error.log"), trace.toString());
        } catch (IOException io) {
            e.addSuppressed(io);
            throw new UncheckedIOException("could not write " + dir.resolve("study-error.log") + " after: " + e.getMessage(), io);
        }
    }

    static Path repeatDir(Path dir, int repeat) {
        return dir.resolve(String.format(Locale.ROOT, "repeat-%02d", repeat));
    }

    /** Creates {@code dir}, removing only what an earlier study wrote there, so that old repeats never mix with new ones. */
    private static void prepareOutDir(Path dir) {
        try {
            Files.createDirectories(dir);
            try (Stream<Path> old = Files.list(dir)) {
                for (Path path : old.filter(p -> p.getFileName().toString().matches("repeat-\\d+")).toList()) {
                    FileTrees.delete(path);
                }
            }
            FileTrees.delete(dir.resolve("chaos"));
            for (String name : List.of("evidence.json", "report.md", "report.html", "study-error.log", "history.jsonl")) {
                Files.deleteIfExists(dir.resolve(name));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the out directory " + dir, e);
        }
    }

    /** Reads {@code --case} names such as {@code late-write}. */
    static final class CaseConverter implements CommandLine.ITypeConverter<LabCase> {
        @Override
        public LabCase convert(String value) {
            return Cases.of(value);
        }
    }
}
