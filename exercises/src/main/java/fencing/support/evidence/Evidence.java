package fencing.support.evidence;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

    /** The version of this schema, written first in every {@code evidence.json}; a file of another version is refused. */
    public static final int SCHEMA = 2;

    /** The file every case writes into its out directory. */
    public static final String FILE = "evidence.json";

    private static final ObjectMapper STRICT = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private Evidence() {
    }

    /**
     * Reads an {@code evidence.json}.
     *
     * @throws IOException              if it cannot be read or is not JSON of this schema
     * @throws IllegalArgumentException if it names another schema version, or none
     */
    public static Study read(Path file) throws IOException {
        JsonNode root = STRICT.readTree(file.toFile());
        if (root == null || !root.path("schema").canConvertToInt() || root.path("schema").asInt() != SCHEMA) {
            throw new IllegalArgumentException(file.getFileName() + " is not evidence of schema " + SCHEMA + " (it says "
                    + (root == null ? "nothing" : root.path("schema").isMissingNode() ? "no schema" : "schema " + root.path("schema"))
                    + "): run the study again with this kit's ./kit study");
        }
        return STRICT.treeToValue(root, Study.class);
    }

    /**
     * The whole study of one case.
     *
     * @param schema the version of this schema, {@link #SCHEMA}
     * @param repeats every repeat of a case played by A and B; empty for the chaos case
     * @param chaos   what the chaos case's history showed; {@code null} for every other case
     */
    public record Study(int schema, String tool, String caseName, String caseTitle, String contract, String startedAt, String endedAt,
                 long ttlSeconds, int repeatsAsked, String etcd, String javaVersion, String classPathNote,
                 Map<String, String> sinks, List<Repeat> repeats, Summary summary, Chaos chaos, String error) {
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
     * @param differences what the verdict rests on and did not hold; empty when the repeat passed
     * @param notes       supporting observations that depend on timing (a sampled TTL), shown but not judged
     */
    public record Repeat(int repeat, String caseName, boolean pass, List<String> differences, List<String> notes, String verdict, String explanation,
                  String contractNote,
                  String lockKey, long ttlSeconds, Holder a, Holder b, Expiry expiry,
                  long startedAtMicros, long endedAtMicros, Figures figures,
                  Map<String, ModeOutcome> modes, Map<String, LedgerOutcome> ledgers, List<Event> events, List<Call> exchanges,
                  Map<String, String> files, Clocks clocks) {
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
     * One point on the timeline: a lane, a time, what happened ({@code kind} and its fields) and how to show it.
     *
     * <p>The report and the judge read {@code kind} and the fields; {@code label} and {@code detail} are for people.
     *
     * @param token   the token the event is about, or {@code null}
     * @param mode    the sink mode the event is about, or {@code null}
     * @param verdict the sink's verdict ({@code accepted}, {@code rejected}, or for a ledger {@code duplicate}) on a write, or {@code null}
     * @param total   a ledger's total after the request, or {@code null}
     * @param value   on a sink's verdict, the mode's value after it, or {@code null}
     * @param mark    on a sink's or a ledger's verdict, the high-water mark after it, or {@code null}
     * @param from    on a sink's or a ledger's verdict, who sent the request ({@code A}, {@code B}, {@code C}), or {@code null}
     */
    public record Event(Lane lane, Kind kind, long atMicros, double tMillis, String label, String detail, Long token, String mode,
                        String verdict, Long total, String value, Long mark, String from) {
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

    /** What happened at a point of the timeline. */
    public enum Kind {
        /** A holder took the lock; {@code token} is its token. */
        ACQUIRED,
        /** etcd created the lock key at revision {@code token}. */
        KEY_CREATED,
        /** Worker A holds the lock, keeps its lease alive and has read the sink. */
        READY,
        /** A was frozen with SIGSTOP. */
        FROZEN,
        /** A's path to etcd was cut, its path to the sink left open: it runs on, and its keepalives go unanswered. */
        CUT_OFF,
        /** A checked its lease on its own timer; {@code verdict} is {@code valid} or {@code expired}. */
        TIMER_CHECKED,
        /** etcd had no lease of A's when asked: it expired and was revoked. */
        LEASE_NOT_FOUND,
        /** etcd's count of A's lease (whole seconds): right after the freeze, or sampled while its leader fails. */
        LEASE_TTL_LEFT,
        /** etcd's leader member was killed while A was frozen. */
        LEADER_FAULT,
        /** The remaining members agreed on a new leader. */
        LEADER_ELECTED,
        /** A's lease's remaining TTL went up although A, frozen, sent no keepalive: the new leader renewed it. */
        LEASE_RENEWED,
        /** etcd expired A's lease and deleted the key. */
        KEY_DELETED,
        /** B's write got its reply; {@code mode} and {@code verdict} say where and how. */
        WROTE,
        /** A was resumed with SIGCONT. */
        RESUMED,
        /** The sink server was killed with SIGKILL. */
        SINK_KILLED,
        /** A new sink server runs over the same files. */
        SINK_RESTARTED,
        /** The broken sink holds A's write between its check and its write. */
        WRITE_HELD,
        /** The hold was released. */
        HOLD_RELEASED,
        /** The sink decided on a write; {@code mode}, {@code token} and {@code verdict} say which and how. */
        VERDICT,
        /** A ledger decided on a request; {@code mode} names the ledger, {@code verdict} and {@code total} say how and what after. */
        LEDGER_VERDICT,
        /** A request was applied and its response lost on purpose; {@code mode} names the ledger. */
        RESPONSE_LOST,
        /** The client sent a request again, with the same id, after its response was lost. */
        RETRIED,
        /** C, which never held the lock, wrote with a token it made up; {@code mode} and {@code verdict} say where and how. */
        FORGED_WRITE,
        /** etcd renewed A's lease. */
        KEEPALIVE,
        /** jetcd told A its lease is gone. */
        LEASE_LOST,
        /** jetcd stopped keeping A's lease alive. */
        KEEPALIVE_ENDED,
        /** B's keepalive failed. */
        KEEPALIVE_FAILED,
        /** B released the lock. */
        RELEASED,
        /** etcd's keyspace was saved in a snapshot at revision {@code token}. */
        SNAPSHOT,
        /** etcd was stopped and brought back from the snapshot (or replaced); {@code token} is its revision after. */
        ETCD_RESTORED,
        /** Recovery raised the epoch; {@code token} is the mark it was raised above. */
        EPOCH_RAISED,
        /** The sink's database files were copied aside, as a backup. */
        SINK_BACKED_UP,
        /** The sink's database files were replaced by the backup, and a new sink server runs over them. */
        SINK_RESTORED_FROM_BACKUP;

        /**
         * Returns whether a run can miss this event: it is seen by sampling etcd (which counts a lease's TTL in whole
         * seconds), not recorded by a step of the run, so it supports a verdict and never decides one.
         */
        public boolean sampled() {
            return this == LEASE_RENEWED;
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
