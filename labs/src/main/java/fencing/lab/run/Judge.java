package fencing.lab.run;

import com.fasterxml.jackson.databind.JsonNode;
import fencing.lab.Times;
import fencing.lab.report.Evidence;
import fencing.lab.report.Evidence.Kind;
import fencing.lab.report.Evidence.Lane;
import fencing.lab.sink.Exchange;
import fencing.lab.worker.WorkerReport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Turns what a repeat recorded into its evidence, and judges it against what the case expects. */
final class Judge {

    private final StudyCase studyCase;
    private final Prepared prepared;
    private final long ttlSeconds;
    private final Events events;

    Judge(StudyCase studyCase, Prepared prepared, long ttlSeconds, Events events) {
        this.studyCase = studyCase;
        this.prepared = prepared;
        this.ttlSeconds = ttlSeconds;
        this.events = events;
    }

    Evidence.Repeat evidence(WorkerReport.Started started, Evidence.Holder a, Evidence.Holder b, Evidence.Expiry expiry, long stopAt, long end,
                             List<Exchange> runnerCalls) {
        List<Exchange> calls = new ArrayList<>(runnerCalls);
        for (WorkerReport report : prepared.worker.seen()) {
            if (report instanceof WorkerReport.Called called) {
                calls.add(called.exchange());
            } else if (report instanceof WorkerReport.KeepAlive k) {
                events.add(Lane.A, Kind.KEEPALIVE, k.atMicros(), "keepalive", "etcd renewed A's lease to " + k.ttl() + " s");
            } else if (report instanceof WorkerReport.LeaseLost lost) {
                events.add(Lane.A, Kind.LEASE_LOST, lost.atMicros(), "learns its lease is gone", lost.error());
            } else if (report instanceof WorkerReport.KeepAliveEnded ended) {
                events.add(Lane.A, Kind.KEEPALIVE_ENDED, ended.atMicros(), "keepalive gave up",
                        "on waking, jetcd saw the lease's deadline had passed; A does not consult it before writing");
            }
        }
        calls.sort(Comparator.comparingLong(Exchange::sentAtMicros));
        for (Exchange call : calls) {
            if (call.isWrite() && call.status() == 200) {
                JsonNode r = call.response();
                String verdict = r.get("verdict").asText();
                events.add(Lane.SINK, Kind.VERDICT, call.decidedAtMicros(), r.get("mode").asText() + ": " + r.get("value").asText()
                                + " (token " + r.get("token").asLong() + ") " + verdict,
                        call.from() + "'s write; after it the mode holds " + r.path("after").path("value").asText() + " with mark "
                                + r.path("after").path("highWaterMark").asLong(), r.get("token").asLong(), r.get("mode").asText(), verdict);
            }
        }
        Outcome outcome = new Outcome(a, b, calls, expiry, events.timeline());
        Map<String, Evidence.ModeOutcome> modes = new LinkedHashMap<>();
        List<String> differences = new ArrayList<>();
        studyCase.expected().forEach((mode, expected) -> modes.put(mode, judgeMode(outcome, mode, expected, differences)));
        for (Exchange call : calls) {
            if (call.isWrite() && call.from().equals("B") && !call.accepted()) {
                differences.add(call.mode() + ": B's write with token " + b.token() + " was " + call.verdict() + ", expected accepted");
            }
        }
        StudyCase.ExpectedMark expectedMark = studyCase.expectedMark();
        long fencedMark = modes.get("fenced").finalHighWaterMark();
        long wantedMark = expectedMark.holder().equals("A") ? a.token() : b.token();
        if (fencedMark != wantedMark) {
            differences.add("fenced: ended with mark " + fencedMark + ", expected " + wantedMark + " (" + expectedMark.why() + ")");
        }
        studyCase.check(outcome, differences);
        boolean pass = differences.isEmpty();
        Exchange aFenced = outcome.write("A", "fenced");
        double ttlMillis = ttlSeconds * 1000.0;
        long start = events.start();
        Evidence.Figures figures = new Evidence.Figures(
                aFenced == null ? null : Math.round((Times.millis(aFenced.receivedAtMicros() - stopAt) - ttlMillis) * 10) / 10.0,
                Math.round((Times.millis(end - start) - ttlMillis) * 10) / 10.0,
                Times.millis(end - start),
                started.startUpMillis());
        String verdict = pass ? "PASS: " + summary(modes) : "FAIL: " + String.join("; ", differences);
        Map<String, String> files = new LinkedHashMap<>();
        files.put("workerLog", prepared.dir.relativize(prepared.worker.log()).toString());
        files.put("sinkDatabases", "sink/plain.db, sink/fenced.db");
        return new Evidence.Repeat(prepared.repeat, studyCase.name(), pass, differences, verdict, studyCase.explanation(),
                pass ? studyCase.contractNote() : null, prepared.key, ttlSeconds, a, b, expiry, start, end, figures, modes,
                events.timeline(), records(calls, start), files);
    }

    private static Evidence.ModeOutcome judgeMode(Outcome outcome, String mode, StudyCase.ModeExpectation expected, List<String> differences) {
        Exchange aWrite = outcome.write("A", mode);
        Exchange finalRead = outcome.finalRead(mode);
        String aVerdict = aWrite == null ? "not sent" : aWrite.verdict();
        String finalValue = finalRead.response().path("value").isNull() ? null : finalRead.response().path("value").asText();
        long mark = finalRead.response().path("highWaterMark").asLong();
        if (!aVerdict.equals(expected.aLateVerdict())) {
            differences.add(mode + ": A's late write with token " + outcome.a().token() + " was " + aVerdict + ", expected " + expected.aLateVerdict());
        }
        if (!Objects.equals(finalValue, expected.finalValue())) {
            differences.add(mode + ": ended at " + finalValue + ", expected " + expected.finalValue());
        }
        boolean asExpected = aVerdict.equals(expected.aLateVerdict()) && Objects.equals(finalValue, expected.finalValue());
        return new Evidence.ModeOutcome(mode, finalRead.response().path("sink").asText(), aVerdict, expected.aLateVerdict(),
                finalValue, expected.finalValue(), mark, asExpected);
    }

    private static String summary(Map<String, Evidence.ModeOutcome> modes) {
        Evidence.ModeOutcome plain = modes.get("plain");
        Evidence.ModeOutcome fenced = modes.get("fenced");
        return "plain " + plain.aLateVerdict() + " A and ended at " + plain.finalValue() + "; fenced " + fenced.aLateVerdict()
                + " A and ended at " + fenced.finalValue() + " with mark " + fenced.finalHighWaterMark();
    }

    private static List<Evidence.Call> records(List<Exchange> calls, long start) {
        List<Evidence.Call> records = new ArrayList<>();
        for (Exchange call : calls) {
            records.add(new Evidence.Call(call.from(), call.method(), call.path(), call.request(), call.status(), call.response(),
                    call.error(), call.sentAtMicros(), call.receivedAtMicros(), Times.millis(call.sentAtMicros() - start),
                    Times.millis(call.receivedAtMicros() - start), call.isWrite() ? call.verdict() : null));
        }
        return records;
    }
}
