package fencing.support.evidence;

import com.fasterxml.jackson.annotation.JsonValue;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What {@code evidence.json} holds, for every case of the lab: the study, each repeat with every request and response,
 * the figures, and for the chaos case what its history showed.
 *
 * <p>Times are wall-clock microseconds since the epoch ({@code ...Micros}), the same clock in every
 * process of the lab; {@code tMillis} fields are milliseconds since the repeat started. The lab writes these records
 * and the grader reads them back with {@link #read}, so that both agree on one schema, versioned by {@link #SCHEMA}.
 */
public final class Evidence {

    /** The version of this schema, written first in every {@code evidence.json}. */
    public static final int SCHEMA = 3;

    /** The file every case writes into its out directory. */
    public static final String FILE = "evidence.json";

    private Evidence() {
    }

    /**
     * Reads an {@code evidence.json} of this schema, or of schema 2 (each repeat's and event's fields side by side, as this
     * kit wrote them before), which it returns in this schema's records.
     *
     * @throws IOException              if it cannot be read or is not JSON of the schema it names
     * @throws IllegalArgumentException if it names another schema version, or none
     */
    public static Study read(Path file) throws IOException {
        return EvidenceReader.read(file);
    }

    /**
     * The whole study of one case.
     *
     * @param schema  the version of this schema, {@link #SCHEMA}
     * @param setup   what the study ran with
     * @param repeats every repeat of a case played by A and B; empty for the chaos case
     * @param chaos   what the chaos case's history showed; {@code null} for every other case
     * @param error   why the study stopped early, or {@code null}
     */
    public record Study(int schema, String caseName, String caseTitle, Setup setup, String startedAt, String endedAt,
                        List<Repeat> repeats, Summary summary, Chaos chaos, String error) {
    }

    /**
     * What a study ran with.
     *
     * @param tool          the program that ran it
     * @param contract      the kit's contract for a submission's classes, as the study states it
     * @param etcd          which etcd, and where it came from
     * @param classPathNote where the submission's classes came from
     * @param sinks         each sink mode and the class that implements it
     */
    public record Setup(String tool, String contract, String etcd, String javaVersion, String classPathNote, long ttlSeconds,
                        int repeatsAsked, Map<String, String> sinks) {
    }

    /**
     * The chaos case: many writers, random freezes (and, where asked for, cuts from etcd), and what the checker found in the
     * merged history.
     *
     * @param history     the history file, relative to the out directory
     * @param freezes     how many times the nemesis froze a writer
     * @param partitions  how many times it cut a writer off from etcd; 0 in evidence written before it could
     * @param differences what did not end as the case expects; empty when it did
     */
    public record Chaos(int writers, long durationSeconds, long seed, String replay, long startedAtMicros, long endedAtMicros,
                        String history, int freezes, int partitions, double writesPerSecond, List<String> problems,
                        Map<String, ChaosMode> modes, List<String> differences) {
    }

    /** What the history checker found for one mode of the chaos run. */
    public record ChaosMode(String mode, String sink, int writes, int accepted, int rejected, int noVerdict, int staleAccepted,
                            int lostUpdates, int expiredHolderAccepted, boolean complete, List<String> examples) {
    }

    /**
     * One run of the experiment.
     *
     * @param judgement whether it ended as the case expects, and why
     * @param lock      the lock, its two holders and how the first holder's lease ended
     * @param modes     how each sink mode ended, by its name
     * @param ledgers   how each ledger ended, by its name; empty in a case without one
     * @param trace     what the run recorded, in order
     */
    public record Repeat(int repeat, String caseName, Judgement judgement, Lock lock, Figures figures, Map<String, ModeOutcome> modes,
                         Map<String, LedgerOutcome> ledgers, Trace trace) {
    }

    /**
     * Whether a repeat ended as its case expects.
     *
     * @param verdict      {@code PASS: ...} or {@code FAIL: ...}, in one line
     * @param explanation  what the case shows, for people
     * @param contractNote on a pass, what the case's result says about the kit's contract; {@code null} on a failure
     * @param differences  what the verdict rests on and did not hold; empty when the repeat passed
     * @param notes        supporting observations that depend on timing (a sampled TTL), shown but not judged
     */
    public record Judgement(boolean pass, String verdict, String explanation, String contractNote, List<String> differences,
                            List<String> notes) {
    }

    /**
     * The lock of a repeat.
     *
     * @param key    the lock's key in etcd
     * @param a      its first holder
     * @param b      the holder after A's lease ended
     * @param expiry how A's lease was seen to end
     * @param clocks the two clocks at A's own check of its lease, in the slow-clock case; {@code null} in every other
     */
    public record Lock(String key, long ttlSeconds, Holder a, Holder b, Expiry expiry, Clocks clocks) {
    }

    /**
     * What a repeat recorded, from its start to its end.
     *
     * @param events    the timeline, in order
     * @param exchanges every request to the sink and its response, in order
     * @param files     the repeat's other files (logs, databases), relative to the out directory
     */
    public record Trace(long startedAtMicros, long endedAtMicros, List<Event> events, List<Call> exchanges, Map<String, String> files) {
    }

    /**
     * The two clocks at A's own check of its lease, in the slow-clock case; {@code null} in every other case.
     *
     * @param clockRate          how fast A's clock ran against the machine's ({@code --clock-rate})
     * @param realMillis         from A asking for the lock to its check, on the machine's clock, which A never reads
     * @param aClockMillis       the same stretch on A's clock: what A's timer counted
     * @param aTimerLeftMillis   the TTL less {@code aClockMillis}: what A's timer said was left of the lease
     * @param etcdTtlLeftSeconds etcd's time-to-live for A's lease, asked just before A's check; -1 when etcd has no such lease
     */
    public record Clocks(double clockRate, long checkedAtMicros, double realMillis, double aClockMillis, double aTimerLeftMillis,
                         boolean aTimerSaysValid, long etcdAskedAtMicros, long etcdTtlLeftSeconds) {
    }

    /** A lock holder: its token (the lock key's create_revision) and its lease. */
    public record Holder(String owner, long token, long leaseId, String leaseIdHex, long acquiredAtMicros, double tMillis, Long pid) {
    }

    /**
     * How the lease's end was seen.
     *
     * @param observedBy         {@code watch} or {@code poll}: which saw the key gone first
     * @param waitAfterStopMillis from SIGSTOP to the key seen gone
     * @param waitMinusTtlMillis  the same minus the TTL: etcd's lag plus the keepalive's phase
     * @param deleteRevision      the revision of the deletion, from the watch event
     * @param etcdTtlLeftAtStop   the lease's remaining TTL as etcd reported it right after SIGSTOP (whole seconds)
     * @param lastKeepAliveMicros when A's last keepalive before SIGSTOP was answered: the lease runs out a TTL later
     */
    public record Expiry(String observedBy, long stopAtMicros, long lastKeepAliveMicros, long observedAtMicros, double waitAfterStopMillis,
                  double waitMinusTtlMillis, Long deleteRevision, Long etcdTtlLeftAtStop, Double watchSawMillis, Double pollSawMillis) {

        /** Returns this expiry with A's last keepalive before SIGSTOP at {@code micros}. */
        public Expiry withLastKeepAlive(long micros) {
            return new Expiry(observedBy, stopAtMicros, micros, observedAtMicros, waitAfterStopMillis, waitMinusTtlMillis, deleteRevision,
                    etcdTtlLeftAtStop, watchSawMillis, pollSawMillis);
        }
    }

    /**
     * The two timing figures of a repeat.
     *
     * @param stopToFencedVerdictMinusTtlMillis (a) SIGSTOP to the fenced mode's verdict on A's late write, minus the TTL
     * @param repeatMinusTtlMillis              (b) the whole repeat (A told to acquire, to the final reads), minus the TTL
     */
    public record Figures(Double stopToFencedVerdictMinusTtlMillis, double repeatMinusTtlMillis, double repeatMillis,
                   double workerStartUpMillis) {
    }

    /**
     * How one mode ended, against what the case expects.
     *
     * <p>A verdict is {@code accepted}, {@code rejected}, {@code not sent}, or what went wrong instead;
     * {@code cVerdict} is the forged write's, {@code null} in a case without one.
     */
    public record ModeOutcome(String mode, String sink, String aLateVerdict, String expectedALateVerdict, String finalValue,
                       String expectedFinalValue, long finalHighWaterMark, boolean asExpected, String bVerdict, String expectedBVerdict,
                       String cVerdict, String expectedCVerdict) {
    }

    /**
     * How one ledger ended, against what the case expects.
     *
     * @param verdicts   B's attempts of its request, in order: {@code lost} (no response came), {@code accepted}, {@code rejected}
     *                   or {@code duplicate}
     * @param finalTotal the ledger's total read at the end
     * @param applied    how many times the request's amount is in the total
     */
    public record LedgerOutcome(String ledger, String implementation, String requestId, long amount, List<String> verdicts,
                                List<String> expectedVerdicts, long finalTotal, long expectedFinalTotal, long applied, long finalHighWaterMark,
                                boolean asExpected) {
    }

    /**
     * One point on the timeline: a lane, a time, what happened ({@code kind}, and what it is {@code about}) and how to show it.
     *
     * <p>The report and the judge read {@code kind} and {@code about}; {@code label} and {@code detail} are for people.
     */
    public record Event(Lane lane, EventKind kind, long atMicros, double tMillis, String label, String detail, About about) {
    }

    /**
     * What an event is about beyond its words: a token, and where a write or a request was answered, the verdict and the state
     * after it; a field that does not apply is {@code null}. Each factory is one shape an event takes.
     *
     * @param token   the token the event is about
     * @param mode    the sink mode, or the ledger, the event is about
     * @param verdict the sink's verdict ({@code accepted}, {@code rejected}, or for a ledger {@code duplicate}) on a write
     * @param total   a ledger's total after the request
     * @param value   on a sink's verdict, the mode's value after it
     * @param mark    on a sink's or a ledger's verdict, the high-water mark after it
     * @param from    on a sink's or a ledger's verdict, who sent the request ({@code A}, {@code B}, {@code C})
     */
    public record About(Long token, String mode, String verdict, Long total, String value, Long mark, String from) {

        /** Nothing beyond the event's words, e.g. a keepalive. */
        public static final About NOTHING = new About(null, null, null, null, null, null, null);

        /** A token, or the revision that is one, e.g. the lock key's create revision at an acquisition. */
        public static About token(long token) {
            return new About(token, null, null, null, null, null, null);
        }

        /** A write with {@code token} to the sink's {@code mode}, and its verdict as its writer heard it, or {@code null} before one. */
        public static About write(long token, String mode, String verdict) {
            return new About(token, mode, verdict, null, null, null, null);
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

    /** The timeline's lanes, top to bottom. */
    public enum Lane {
        A("A"), ETCD("etcd"), B("B"), C("C"), SINK("sink");

        private final String label;

        Lane(String label) {
            this.label = label;
        }

        /** Returns the lane's name in the evidence and the report. */
        @JsonValue
        public String label() {
            return label;
        }
    }

    /**
     * One request and its response, with times relative to the repeat's start.
     *
     * @param request  the body sent, or {@code null} for a request without one
     * @param status   the HTTP status, or -1 when no response came
     * @param response the sink's answer, or {@code null} when none came
     */
    public record Call(String from, String method, String path, SinkRequest request, int status, SinkReply response, String error,
                  long sentAtMicros, long receivedAtMicros, double tSentMillis, double tReceivedMillis, String verdict) {
    }

    /** The figures over all repeats. */
    public record Summary(int repeats, int passed, int failed, Stats stopToFencedVerdictMinusTtl, Stats repeatMinusTtl,
                   Stats expiryWaitAfterStop) {
    }

    /** Median, max and min of one figure, in milliseconds; {@code null} when no repeat gave it. */
    public record Stats(Double medianMillis, Double maxMillis, Double minMillis) {
        /** Returns the median, max and min of {@code values}. */
        public static Stats of(List<Double> values) {
            if (values.isEmpty()) {
                return new Stats(null, null, null);
            }
            List<Double> sorted = values.stream().sorted().toList();
            int n = sorted.size();
            double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
            return new Stats(Math.round(median * 10) / 10.0, sorted.get(n - 1), sorted.get(0));
        }
    }
}
