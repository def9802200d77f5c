package fencing.lab.run;

import fencing.lab.common.Times;
import fencing.support.evidence.Evidence;
import fencing.lab.sink.Exchange;
import fencing.lab.sink.Mode;
import fencing.support.evidence.SinkReply;
import fencing.lab.worker.WorkerReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Turns what a repeat recorded into its evidence, and judges it against what the case expects. */
final class Judge {

    private final CaseToRun toRun;
    private final Prepared prepared;
    private final long ttlSeconds;
    private final Journal journal;

    Judge(CaseToRun toRun, Prepared prepared, long ttlSeconds, Journal journal) {
        this.toRun = toRun;
        this.prepared = prepared;
        this.ttlSeconds = ttlSeconds;
        this.journal = journal;
    }

    /** Returns the repeat's evidence, judged: a function of the journal and of what the runner measured, which it leaves as it is. */
    Evidence.Repeat evidence(WorkerReport.Started started, Evidence.Holder a, Evidence.Holder b, Evidence.Expiry expiry, long stopAt, long end) {
        List<Exchange> calls = journal.exchanges();
        Evidence.Clocks clocks = journal.clocks();
        Outcome outcome = new Outcome(a, b, calls, expiry, journal.timeline(), clocks);
        Map<Mode, Evidence.ModeOutcome> modes = new LinkedHashMap<>();
        List<String> differences = new ArrayList<>();
        toRun.expected().forEach((mode, expected) -> modes.put(mode, judgeMode(outcome, mode, expected, differences)));
        Map<String, Evidence.LedgerOutcome> ledgers = new LinkedHashMap<>();
        toRun.labCase().expectedLedgers()
                .forEach((ledger, expected) -> ledgers.put(ledger, LedgerJudge.judge(outcome, ledger, expected, differences)));
        if (modes.containsKey(Mode.FENCED)) {
            LabCase.ExpectedMark expectedMark = toRun.labCase().expectedMark();
            long fencedMark = modes.get(Mode.FENCED).finalHighWaterMark();
            long wantedMark = switch (expectedMark.holder()) {
                case A -> a.token();
                case B -> b.token();
                case C -> LabCase.FORGED_TOKEN;
            };
            if (fencedMark != wantedMark) {
                differences.add("fenced: ended with mark " + fencedMark + ", expected " + wantedMark + " (" + expectedMark.why() + ")");
            }
        }
        toRun.labCase().check(outcome, differences);
        List<String> notes = new ArrayList<>();
        toRun.labCase().notes(outcome, notes);
        boolean pass = differences.isEmpty();
        Exchange aFenced = outcome.write(Holder.A, Mode.FENCED);
        double ttlMillis = ttlSeconds * 1000.0;
        long start = journal.start();
        Evidence.Figures figures = new Evidence.Figures(
                aFenced == null ? null : Math.round((Times.millis(aFenced.receivedAtMicros() - stopAt) - ttlMillis) * 10) / 10.0,
                Math.round((Times.millis(end - start) - ttlMillis) * 10) / 10.0,
                Times.millis(end - start),
                started.startUpMillis());
        String verdict = pass ? "PASS: " + summary(modes.values(), ledgers) : "FAIL: " + String.join("; ", differences);
        Map<String, String> files = new LinkedHashMap<>();
        files.put("workerLog", prepared.dir.relativize(prepared.worker.log()).toString());
        List<String> databases = new ArrayList<>();
        modes.keySet().forEach(mode -> databases.add("sink/" + mode.text() + ".db"));
        ledgers.keySet().forEach(ledger -> databases.add("sink/" + (ledger.equals("idempotent") ? "ledger" : "counter") + ".db"));
        files.put("sinkDatabases", String.join(", ", databases));
        if (prepared.forger != null) {
            files.put("writerCLog", prepared.dir.relativize(prepared.forger.log()).toString());
        }
        return new Evidence.Repeat(prepared.repeat, toRun.labCase().name(),
                new Evidence.Judgement(pass, verdict, toRun.explanation(), pass ? toRun.labCase().contractNote() : null, differences, notes),
                new Evidence.Lock(prepared.key, ttlSeconds, a, b, expiry, clocks), figures, byText(modes), ledgers,
                new Evidence.Trace(start, end, journal.timeline(), records(calls, start), files));
    }

    private static Evidence.ModeOutcome judgeMode(Outcome outcome, Mode mode, LabCase.ModeExpectation expected, List<String> differences) {
        SinkReply.ModeState finalRead = outcome.finalRead(mode).reply(SinkReply.ModeState.class);
        String finalValue = finalRead.value();
        long mark = finalRead.highWaterMark();
        String aVerdict = verdict(outcome.write(Holder.A, mode));
        String bVerdict = verdict(outcome.write(Holder.B, mode));
        String cVerdict = expected.cVerdict() == null && outcome.write(Holder.C, mode) == null ? null : verdict(outcome.write(Holder.C, mode));
        boolean asExpected = true;
        asExpected &= same(differences, mode + ": A's late write with token " + outcome.a().token(), aVerdict, expected.aLateVerdict());
        asExpected &= same(differences, mode + ": B's write with token " + outcome.b().token(), bVerdict, expected.bVerdict());
        if (expected.cVerdict() != null || cVerdict != null) {
            asExpected &= same(differences, mode + ": C's forged write with token " + LabCase.FORGED_TOKEN, cVerdict, expected.cVerdict());
        }
        if (!Objects.equals(finalValue, expected.finalValue())) {
            differences.add(mode + ": ended at " + finalValue + ", expected " + expected.finalValue());
            asExpected = false;
        }
        return new Evidence.ModeOutcome(mode.text(), finalRead.sink(), aVerdict, text(expected.aLateVerdict()),
                finalValue, expected.finalValue(), mark, asExpected, bVerdict, text(expected.bVerdict()), cVerdict, text(expected.cVerdict()));
    }

    /** Returns what became of {@code write}: its verdict's text, or what went wrong instead, e.g. {@code HTTP 500: ...}. */
    private static String verdict(Exchange write) {
        return write == null ? Verdict.NOT_SENT.text() : write.verdict();
    }

    private static String text(Verdict verdict) {
        return verdict == null ? null : verdict.text();
    }

    /** Returns whether {@code verdict} is {@code expected}; a failure's text, which is no verdict, never is. */
    private static boolean same(List<String> differences, String what, String verdict, Verdict expected) {
        if (expected == null ? verdict == null : Verdict.parse(verdict).orElse(null) == expected) {
            return true;
        }
        differences.add(what + " was " + verdict + ", expected " + expected);
        return false;
    }

    private static Map<String, Evidence.ModeOutcome> byText(Map<Mode, Evidence.ModeOutcome> modes) {
        Map<String, Evidence.ModeOutcome> byText = new LinkedHashMap<>();
        modes.forEach((mode, outcome) -> byText.put(mode.text(), outcome));
        return byText;
    }

    // Read back from the evidence's text, as a passed repeat's summary is: every verdict in it is one of Verdict's.
    private static String summary(Iterable<Evidence.ModeOutcome> modes, Map<String, Evidence.LedgerOutcome> ledgers) {
        List<String> parts = new ArrayList<>();
        for (Evidence.ModeOutcome mode : modes) {
            List<String> verdicts = new ArrayList<>();
            if (mode.cVerdict() != null) {
                verdicts.add(mode.cVerdict() + " C");
            }
            boolean aSent = Verdict.parse(mode.aLateVerdict()).orElse(null) != Verdict.NOT_SENT;
            if (aSent) {
                verdicts.add(mode.aLateVerdict() + " A");
            }
            if (mode.cVerdict() != null || !aSent || Verdict.parse(mode.bVerdict()).orElse(null) != Verdict.ACCEPTED) {
                verdicts.add(mode.bVerdict() + " B");
            }
            StringBuilder part = new StringBuilder(mode.mode()).append(" ").append(String.join(", ", verdicts))
                    .append(" and ended at ").append(mode.finalValue());
            if (Mode.of(mode.mode()) != Mode.PLAIN) {
                part.append(" with mark ").append(mode.finalHighWaterMark());
            }
            parts.add(part.toString());
        }
        for (Evidence.LedgerOutcome ledger : ledgers.values()) {
            parts.add(ledger.ledger() + " answered " + String.join(" then ", ledger.verdicts()) + " and applied B's request "
                    + ledger.applied() + (ledger.applied() == 1 ? " time" : " times") + " (total " + ledger.finalTotal() + ")");
        }
        return String.join("; ", parts);
    }

    private static List<Evidence.Call> records(List<Exchange> calls, long start) {
        List<Evidence.Call> records = new ArrayList<>();
        for (Exchange call : calls) {
            records.add(new Evidence.Call(call.from(), call.method(), call.path(), call.request(), call.status(), call.response(),
                    call.error(), call.sentAtMicros(), call.receivedAtMicros(), Times.millis(call.sentAtMicros() - start),
                    Times.millis(call.receivedAtMicros() - start),
                    call.isLedgerAdd() && call.isLost() ? "lost" : call.isWrite() || call.isLedgerAdd() ? call.verdict() : null));
        }
        return records;
    }
}
