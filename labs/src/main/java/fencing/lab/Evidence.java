package fencing.lab;

import java.util.List;
import java.util.Map;

/**
 * What {@code evidence.json} holds: the study, each repeat with every request and response, and the figures.
 *
 * <p>Times are wall-clock microseconds since the epoch ({@code ...Micros}), the same clock in every
 * process of the lab; {@code tMillis} fields are milliseconds since the repeat started.
 */
final class Evidence {

    private Evidence() {
    }

    /** The whole study. */
    record Study(String tool, String caseName, String caseTitle, String contract, String startedAt, String endedAt,
                 long ttlSeconds, int repeatsAsked, String etcd, String javaVersion, String classPathNote,
                 Map<String, String> sinks, List<Repeat> repeats, Summary summary, String error) {
    }

    /** One run of the experiment. */
    record Repeat(int repeat, String caseName, boolean pass, List<String> differences, String verdict, String explanation,
                  String contractNote,
                  String lockKey, long ttlSeconds, Holder a, Holder b, Expiry expiry,
                  long startedAtMicros, long endedAtMicros, Figures figures,
                  Map<String, ModeOutcome> modes, List<Event> events, List<Call> exchanges, Map<String, String> files) {
    }

    /** A lock holder: its token (the lock key's create_revision) and its lease. */
    record Holder(String owner, long token, long leaseId, String leaseIdHex, long acquiredAtMicros, double tMillis, Long pid) {
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
    record Expiry(String observedBy, long stopAtMicros, long lastKeepAliveMicros, long observedAtMicros, double waitAfterStopMillis,
                  double waitMinusTtlMillis, Long deleteRevision, Long etcdTtlLeftAtStop, Double watchSawMillis, Double pollSawMillis) {
    }

    /**
     * The two timing figures of a repeat.
     *
     * @param stopToFencedVerdictMinusTtlMillis (a) SIGSTOP to the fenced mode's verdict on A's late write, minus the TTL
     * @param repeatMinusTtlMillis              (b) the whole repeat (A told to acquire, to the final reads), minus the TTL
     */
    record Figures(Double stopToFencedVerdictMinusTtlMillis, double repeatMinusTtlMillis, double repeatMillis,
                   double workerStartUpMillis) {
    }

    /** How one mode ended, against what the case expects. */
    record ModeOutcome(String mode, String sink, String aLateVerdict, String expectedALateVerdict, String finalValue,
                       String expectedFinalValue, long finalHighWaterMark, boolean asExpected) {
    }

    /** One point on the timeline: a lane ({@code A}, {@code etcd}, {@code B} or {@code sink}), a time and what happened. */
    record Event(String lane, long atMicros, double tMillis, String label, String detail) {
    }

    /** One request and its response, with times relative to the repeat's start. */
    record Call(String from, String method, String path, Object request, int status, Object response, String error,
                  long sentAtMicros, long receivedAtMicros, double tSentMillis, double tReceivedMillis, String verdict) {
    }

    /** The figures over all repeats. */
    record Summary(int repeats, int passed, int failed, Stats stopToFencedVerdictMinusTtl, Stats repeatMinusTtl,
                   Stats expiryWaitAfterStop) {
    }

    /** Median, max and min of one figure, in milliseconds; {@code null} when no repeat gave it. */
    record Stats(Double medianMillis, Double maxMillis, Double minMillis) {
        static Stats of(List<Double> values) {
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
