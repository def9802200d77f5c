package fencing.lab.report;

import fencing.support.evidence.Evidence;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;

/** The study's console output: a short table per repeat and the summary. */
public final class Tables {

    private Tables() {
    }

    /** Prints one repeat's table. */
    public static void printRepeat(PrintWriter say, Evidence.Repeat repeat) {
        Evidence.Lock lock = repeat.lock();
        Evidence.Judgement judgement = repeat.judgement();
        boolean forged = repeat.modes().values().stream().anyMatch(m -> m.cVerdict() != null);
        if (!repeat.modes().isEmpty()) {
            say.printf(Locale.ROOT, "  %-14s %-20s %s%-16s %-10s %-12s %-14s %s%n", "mode", "sink", forged ? String.format(Locale.ROOT, "%-17s", "C's forged write") : "",
                    "A's late write", "B's write", "final value", "mark", "expected");
        }
        for (Evidence.ModeOutcome mode : repeat.modes().values()) {
            say.printf(Locale.ROOT, "  %-14s %-20s %s%-16s %-10s %-12s %-14d %-40s %s%n", mode.mode(), mode.sink(),
                    forged ? String.format(Locale.ROOT, "%-17s", mode.cVerdict()) : "", mode.aLateVerdict(), mode.bVerdict(), mode.finalValue(),
                    mode.finalHighWaterMark(), (forged ? "C " + mode.expectedCVerdict() + ", " : "") + "A " + mode.expectedALateVerdict()
                            + ", B " + mode.expectedBVerdict() + " / " + mode.expectedFinalValue(), mode.asExpected() ? "ok" : "DIFFERS");
        }
        if (!repeat.ledgers().isEmpty()) {
            say.printf(Locale.ROOT, "  %-14s %-20s %-24s %-6s %-8s %s%n", "ledger", "class", "B's request, attempts", "total", "applied", "expected");
        }
        for (Evidence.LedgerOutcome ledger : repeat.ledgers().values()) {
            say.printf(Locale.ROOT, "  %-14s %-20s %-24s %-6d %-8s %-34s %s%n", ledger.ledger(), ledger.implementation(),
                    ledger.requestId() + ": " + String.join(", ", ledger.verdicts()), ledger.finalTotal(), ledger.applied() + "×",
                    String.join(", ", ledger.expectedVerdicts()) + " / total " + ledger.expectedFinalTotal(), ledger.asExpected() ? "ok" : "DIFFERS");
        }
        String since = Clocks.since(repeat);
        say.printf(Locale.ROOT, "  tokens: A %d (lease %s), B %d (lease %s); key gone %.2f s after %s (%s)%n",
                lock.a().token(), lock.a().leaseIdHex(), lock.b().token(), lock.b().leaseIdHex(),
                lock.expiry().waitAfterStopMillis() / 1000, since, lock.expiry().observedBy());
        Clocks.print(say, repeat);
        Evidence.Figures figures = repeat.figures();
        say.printf(Locale.ROOT, "  (a) " + since + " → fenced verdict on A's late write − TTL: %s   (b) whole repeat − TTL: %.2f s%n",
                figures.stopToFencedVerdictMinusTtlMillis() == null ? "n/a"
                        : String.format(Locale.ROOT, "%.2f s", figures.stopToFencedVerdictMinusTtlMillis() / 1000),
                figures.repeatMinusTtlMillis() / 1000);
        say.println("  " + judgement.verdict());
        judgement.notes().forEach(note -> say.println("  " + note));
        if (judgement.contractNote() != null) {
            say.println("  " + judgement.contractNote());
        }
        say.flush();
    }

    /** Prints the study's summary. */
    public static void printSummary(PrintWriter say, Evidence.Study study, Path dir) {
        Evidence.Setup setup = study.setup();
        Evidence.Summary summary = study.summary();
        say.println();
        say.printf(Locale.ROOT, "%s: %d of %d repeat%s done, %d as expected, %d not%n", study.caseName(), summary.repeats(),
                setup.repeatsAsked(), setup.repeatsAsked() == 1 ? "" : "s", summary.passed(), summary.failed());
        if (summary.repeats() > 0) {
            say.printf(Locale.ROOT, "(a) " + Clocks.since(study) + " → fenced verdict on A's late write, minus the TTL: median %s, max %s%n",
                    millis(summary.stopToFencedVerdictMinusTtl().medianMillis()), millis(summary.stopToFencedVerdictMinusTtl().maxMillis()));
            say.printf(Locale.ROOT, "(b) whole repeat, minus the TTL: median %s, max %s%n",
                    millis(summary.repeatMinusTtl().medianMillis()), millis(summary.repeatMinusTtl().maxMillis()));
        }
        for (Evidence.Repeat repeat : study.repeats()) {
            if (!repeat.judgement().pass()) {
                say.printf(Locale.ROOT, "repeat %d differed: %s%n", repeat.repeat(), String.join("; ", repeat.judgement().differences()));
            }
        }
        say.println("evidence: " + dir.resolve("evidence.json"));
        say.println("reports:  " + dir.resolve("report.md") + "  " + dir.resolve("report.html"));
        say.flush();
    }

    static String millis(Double value) {
        return value == null ? "n/a" : String.format(Locale.ROOT, "%.0f ms", value);
    }
}
