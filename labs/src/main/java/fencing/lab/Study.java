package fencing.lab;

import fencing.lab.run.LabCase;
import fencing.lab.run.cases.Cases;
import fencing.lab.run.chaos.ChaosPlan;
import fencing.lab.run.chaos.Fault;
import fencing.lab.report.StudyIndex;
import fencing.support.FileTrees;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
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
            "Other cases: a forged token, a retried request and more (see --case); --case all runs every one."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every repeat ended as the case expects",
            "1:a repeat ended otherwise; the output names what differed",
            "2:the options were wrong",
            "3:the study could not run (etcd, a process or the sink failed)"})
public final class Study implements Callable<Integer> {

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
            completionCandidates = CaseNames.class,
            description = "One of ${COMPLETION-CANDIDATES}, or all (default: ${DEFAULT-VALUE}). With all, every case runs once, each into a"
                    + " folder of its own under --out, with an index report.html (--repeats then applies to the default case).")
    Selection selection;

    @Option(names = "--writers", paramLabel = "N", description = "chaos (and all) only: how many writer JVMs loop on the lock (default: 4).")
    Integer writers;

    @Option(names = "--duration", paramLabel = "S", description = "chaos (and all) only: how many seconds the writers loop (default: 30).")
    Long duration;

    @Option(names = "--seed", paramLabel = "X", description = "chaos (and all) only: the nemesis's seed, to replay a run's faults (default: a random one, printed).")
    Long seed;

    @Option(names = "--faults", paramLabel = "F[,F]", description = "chaos (and all) only: the faults the nemesis deals, comma-separated:"
            + " freeze (SIGSTOP), partition (a writer cut off from etcd, its path to the sink open) (default: freeze).")
    String faults;

    @Option(names = "--clock-rate", paramLabel = "R", description = "slow-clock (and all) only: how fast A's own clock runs against the"
            + " machine's, above 0 and at most 10; below 1 it runs slow (default: 0.5).")
    Double clockRate;

    @Option(names = "--child-class-path", hidden = true,
            description = "The class path of worker A and the sink server; default: this JVM's own.")
    String childClassPath;

    @Spec
    CommandSpec spec;

    /** Runs the study; see {@code --help}. */
    public static void main(String[] args) {
        if (System.getProperty("os.name", "").startsWith("Windows")) {
            System.err.println(WINDOWS);
            System.exit(LabSettings.EXIT_COULD_NOT_RUN);
        }
        System.exit(commandLine().execute(args));
    }

    /** Returns the study's command line, on which an unexpected failure exits with 3, not 1 (which means "differed"). */
    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new Study());
        commandLine.setExecutionExceptionHandler((failure, line, parsed) -> {
            line.getErr().println("The study could not run: " + LabSettings.describe(failure));
            failure.printStackTrace(line.getErr());
            line.getErr().flush();
            return LabSettings.EXIT_COULD_NOT_RUN;
        });
        return commandLine;
    }

    @Override
    public Integer call() {
        if (repeats < 1 || repeats > MAX_REPEATS) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--repeats must be between 1 and " + MAX_REPEATS + ", got " + repeats);
        }
        boolean chaosChosen = selection.all() || selection.cases().get(0).equals(Cases.CHAOS);
        if (!chaosChosen && (writers != null || duration != null || seed != null || faults != null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--writers, --duration, --seed and --faults apply to --case chaos (or all) only");
        }
        Set<Fault> dealt;
        try {
            dealt = faults == null ? Fault.DEFAULT : Fault.parse(faults);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--faults: " + e.getMessage());
        }
        boolean clockChosen = selection.all() || Cases.of(selection.cases().get(0)).map(c -> c.aClockRate().isPresent()).orElse(false);
        if (!clockChosen && clockRate != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--clock-rate applies to --case slow-clock (or all) only");
        }
        try {
            // Every case is built at the rate once here, so that a rate no case takes is refused before anything runs.
            Cases.ALL.forEach(labCase -> withClockRate(labCase, clockRate));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--clock-rate: " + e.getMessage());
        }
        int n = writers == null ? ChaosPlan.WRITERS : writers;
        long seconds = duration == null ? ChaosPlan.SECONDS : duration;
        if (n < 2 || n > 16) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--writers must be between 2 and 16, got " + n);
        }
        if (seconds < 1 || seconds > 3600) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--duration must be between 1 and 3600 seconds, got " + seconds);
        }
        if (!selection.all() && chaosChosen && repeats != 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--case chaos runs once: leave out --repeats, and use --duration for a longer run");
        }
        PrintWriter say = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path dir = out.toAbsolutePath().normalize();
        String classPath = childClassPath != null ? childClassPath : System.getProperty("java.class.path");
        String note = childClassPath == null ? "worker A and the sink server ran on the runner's class path"
                : "worker A and the sink server ran on --child-class-path";
        long chosen = seed != null ? seed : new java.security.SecureRandom().nextLong();
        Run run = new Run(new ChildClassPath(classPath, note), clockRate, new ChaosPlan(n, seconds, chosen, dealt), say, err);
        if (!selection.all()) {
            return run.one(selection.cases().get(0), repeats, dir);
        }
        LabSettings.prepareOutDir(dir);
        for (String name : selection.cases()) {
            FileTrees.delete(dir.resolve(name));
        }
        Map<String, Integer> exits = new LinkedHashMap<>();
        for (String name : selection.cases()) {
            // The default case takes --repeats; every other case runs once, as its question asks.
            int times = name.equals(selection.cases().get(0)) ? repeats : 1;
            int exit = run.one(name, times, dir.resolve(name));
            exits.put(name, exit);
            say.println();
            if (exit == LabSettings.EXIT_COULD_NOT_RUN && Thread.currentThread().isInterrupted()) {
                break;
            }
        }
        StudyIndex.write(dir, exits);
        say.println("all cases: " + StudyIndex.summary(exits));
        say.println("index:    " + dir.resolve("report.html"));
        say.flush();
        return exits.size() < selection.cases().size() || exits.containsValue(LabSettings.EXIT_COULD_NOT_RUN) ? LabSettings.EXIT_COULD_NOT_RUN
                : exits.containsValue(LabSettings.EXIT_DIFFERED) ? LabSettings.EXIT_DIFFERED : 0;
    }

    /**
     * What every case of one study runs with, whichever cases it runs.
     *
     * @param clockRate A's clock rate for the cases that have such a clock, or {@code null} for each case's own
     */
    private record Run(ChildClassPath classes, Double clockRate, ChaosPlan chaos, PrintWriter say, PrintWriter err) {

        /** Runs the case {@code name} {@code times} times into {@code dir}, and returns the study's exit code for it. */
        int one(String name, int times, Path dir) {
            return Cases.of(name).map(labCase -> new Repeats(withClockRate(labCase, clockRate), times, dir, classes, say).run(err))
                    .orElseGet(() -> new ChaosStudy(chaos, dir, classes, say).run(err));
        }
    }

    /** Returns {@code labCase} with A's clock at {@code clockRate} where the case has such a clock and a rate was given. */
    private static LabCase withClockRate(LabCase labCase, Double clockRate) {
        return clockRate == null ? labCase : labCase.withAClockRate(clockRate);
    }

    /**
     * The cases a run plays, by name: one named on the command line, or every case and the chaos run for {@code all}.
     *
     * @param all whether {@code --case all} was given, so that each case writes into a folder of its own
     */
    record Selection(List<String> cases, boolean all) {
    }

    /** Reads {@code --case} names such as {@code late-write}, or {@code all}. */
    static final class CaseConverter implements CommandLine.ITypeConverter<Selection> {
        @Override
        public Selection convert(String value) {
            if (value.trim().equalsIgnoreCase(ALL)) {
                return new Selection(Cases.names(), true);
            }
            return new Selection(List.of(Cases.canonical(value)), false);
        }
    }

    /** The names {@code --case} takes, for the help: from the one list of the cases, and {@code all}. */
    static final class CaseNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Cases.names().iterator();
        }
    }

    /** The {@code --case} that runs every case. */
    static final String ALL = "all";
}
