package fencing.lab.history;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code ./kit check-history FILE}: judges a recorded chaos history and exits 0 (no violation), 1 (violations, listed) or 2 (unknown).
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
            out.printf(Locale.ROOT, "  %-14s stale writes accepted %d, lost updates %d, expired-holder writes accepted %d%s%n", "",
                    mode.staleAccepted(), mode.lostUpdates(), mode.expiredHolderAccepted(),
                    mode.expiredHolderIsViolation() ? " (violations in this mode)" : " (allowed by a high-water mark's contract)");
            for (String example : mode.examples()) {
                out.println("  " + " ".repeat(14) + " " + example);
            }
        }
        out.printf(Locale.ROOT, "verdict: %s (exit %d), seed %d, checked in %d ms%n", switch (verdict) {
            case OK -> "ok, no violation";
            case VIOLATIONS -> "VIOLATIONS";
            case UNKNOWN -> "UNKNOWN: the history cannot be judged as it is";
        }, verdict.exitCode(), findings.seed(), tookMillis);
        out.flush();
        return verdict.exitCode();
    }
}
