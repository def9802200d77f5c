package fencing.lab.history;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * {@code ./kit check-history FILE}: judges a recorded chaos history and exits 0 (no violation), 1 (violations, listed) or 2 (unknown).
 *
 * <p>Each mode is judged against what the lesson expects of it ({@link HistoryChecker.Contract}): the plain mode's
 * stale writes are reported as expected, and only a mode that must have none, fenced or current-owner, makes a violation.
 *
 * <p>"Unknown" covers a missing, unparsable, truncated or otherwise incomplete history, and wrong usage:
 * whatever cannot be judged is never reported as fine.
 */
public final class CheckHistory {

    private CheckHistory() {
    }

    /** Runs the check; see the class comment. */
    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }

    static int run(String[] args, PrintStream out) {
        if (args.length != 1 || args[0].startsWith("-")) {
            out.println("usage: check-history FILE   (exit 0 no violation, 1 violations, 2 unknown: incomplete or invalid history)");
            return HistoryChecker.Verdict.UNKNOWN.exitCode();
        }
        long started = System.nanoTime();
        HistoryChecker.Findings findings = HistoryChecker.check(Path.of(args[0]));
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        HistoryChecker.Verdict verdict = findings.verdict();
        out.println("history " + args[0]);
        for (String problem : findings.problems()) {
            out.println("  cannot judge: " + problem);
        }
        for (HistoryChecker.ModeFindings mode : findings.modes().values()) {
            out.printf(Locale.ROOT, "  %-14s %6d writes, %6d accepted, %6d rejected, %d without verdict%s%n", mode.mode(), mode.writes(),
                    mode.accepted(), mode.rejected(), mode.noVerdict(), mode.complete() ? "" : " (INCOMPLETE: unknown)");
            out.printf(Locale.ROOT, "  %-14s stale writes accepted %d, lost updates %d, expired-holder writes accepted %d%n", "",
                    mode.staleAccepted(), mode.lostUpdates(), mode.expiredHolderAccepted());
            out.printf(Locale.ROOT, "  %-14s %s: it %s%n", "", judgement(mode), mode.contract().promise());
            for (String example : mode.examples()) {
                out.println("  " + " ".repeat(14) + " " + example);
            }
        }
        out.printf(Locale.ROOT, "verdict: %s (exit %d), seed %d, checked in %d ms%n", switch (verdict) {
            case OK -> "ok, no violation";
            case VIOLATIONS -> "VIOLATIONS in " + findings.modes().values().stream().filter(mode -> mode.violations() > 0)
                    .map(HistoryChecker.ModeFindings::mode).collect(Collectors.joining(", "));
            case UNKNOWN -> "UNKNOWN: the history cannot be judged as it is";
        }, verdict.exitCode(), findings.seed(), tookMillis);
        out.flush();
        return verdict.exitCode();
    }

    private static String judgement(HistoryChecker.ModeFindings mode) {
        if (mode.violations() > 0) {
            return mode.violations() + " VIOLATIONS in " + mode.mode();
        }
        return (mode.contract() == HistoryChecker.Contract.NONE ? "as expected of " : "kept by ") + mode.mode();
    }
}
