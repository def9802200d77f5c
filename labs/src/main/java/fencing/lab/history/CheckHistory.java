package fencing.lab.history;

import fencing.lab.sink.Mode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code ./kit check-history FILE}: judges a recorded chaos history and exits 0 (no violation), 1 (violations, listed) or 2 (unknown).
 *
 * <p>Each mode is judged against what the lesson expects of it ({@link HistoryChecker.Contract}): the plain mode's
 * stale writes are reported as expected, and only a mode that must have none, fenced or current-owner, makes a violation.
 * Besides the counts of {@link HistoryChecker}, each mode's history is checked for linearizability against a register with
 * a high-water mark ({@link Linearizability}); a fenced or current-owner history that no order explains is a violation, and
 * a search stopped by its bound ({@code --max-states N}) is unknown.
 *
 * <p>"Unknown" covers a missing, unparsable, truncated or otherwise incomplete history, and wrong usage:
 * whatever cannot be judged is never reported as fine.
 */
public final class CheckHistory {

    private static final String USAGE = "usage: check-history FILE [--max-states N]   (exit 0 no violation, 1 violations, "
            + "2 unknown: incomplete or invalid history, or a linearizability search stopped at its bound)";

    private CheckHistory() {
    }

    /** Runs the check; see the class comment. */
    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }

    static int run(String[] args, PrintStream out) {
        long maxStates = Linearizability.DEFAULT_MAX_STATES;
        String file = null;
        try {
            String bound = null;
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals("--max-states") && i + 1 < args.length) {
                    bound = args[++i];
                } else if (args[i].startsWith("-") || file != null) {
                    throw new IllegalArgumentException(args[i]);
                } else {
                    file = args[i];
                }
            }
            if (bound != null && !bound.isBlank()) {
                maxStates = Long.parseLong(bound.strip());
            }
            if (file == null || maxStates < 1) {
                throw new IllegalArgumentException("no file, or a bound below 1");
            }
        } catch (IllegalArgumentException e) {
            out.println(USAGE);
            return HistoryChecker.Verdict.UNKNOWN.exitCode();
        }
        long started = System.nanoTime();
        History history = History.read(Path.of(file));
        HistoryChecker.Findings findings = HistoryChecker.check(history);
        long countedAt = System.nanoTime();
        Map<Mode, Linearizability.Result> linearizability =
                findings.problems().isEmpty() ? Linearizability.check(history, maxStates) : Map.of();
        long finished = System.nanoTime();
        long origin = history.writes().stream().mapToLong(History.Write::sentAtMicros).min().orElse(0);
        Set<String> violating = new LinkedHashSet<>();
        boolean unknown = findings.verdict() == HistoryChecker.Verdict.UNKNOWN;
        out.println("history " + file);
        for (String problem : findings.problems()) {
            out.println("  cannot judge: " + problem);
        }
        for (HistoryChecker.ModeFindings mode : findings.modes().values()) {
            out.printf(Locale.ROOT, "  %-14s %6d writes, %6d accepted, %6d rejected, %d without verdict%s%n", mode.mode().text(), mode.writes(),
                    mode.accepted(), mode.rejected(), mode.noVerdict(), mode.complete() ? "" : " (INCOMPLETE: unknown)");
            out.printf(Locale.ROOT, "  %-14s stale writes accepted %d, lost updates %d, expired-holder writes accepted %d%n", "",
                    mode.staleAccepted(), mode.lostUpdates(), mode.expiredHolderAccepted());
            out.printf(Locale.ROOT, "  %-14s %s: it %s%n", "", judgement(mode), mode.contract().promise());
            for (String example : mode.examples()) {
                out.println("  " + " ".repeat(14) + " " + example);
            }
            if (mode.violations() > 0) {
                violating.add(mode.mode().text());
            }
            Linearizability.Result result = linearizability.get(mode.mode());
            if (result != null) {
                LinearizabilityReport.print(out, mode.mode(), mode.contract(), result, origin);
                if (result.answer() == Linearizability.Answer.NOT_LINEARIZABLE && mode.contract() != HistoryChecker.Contract.NONE) {
                    violating.add(mode.mode().text());
                }
                unknown |= result.answer() == Linearizability.Answer.UNKNOWN;
            }
        }
        HistoryChecker.Verdict verdict = !violating.isEmpty() ? HistoryChecker.Verdict.VIOLATIONS
                : unknown ? HistoryChecker.Verdict.UNKNOWN : HistoryChecker.Verdict.OK;
        out.printf(Locale.ROOT, "verdict: %s (exit %d), seed %d, checked in %d ms (linearizability %d ms)%n", switch (verdict) {
            case OK -> "ok, no violation";
            case VIOLATIONS -> "VIOLATIONS in " + String.join(", ", violating);
            case UNKNOWN -> "UNKNOWN: the history cannot be judged as it is";
        }, verdict.exitCode(), findings.seed(), (finished - started) / 1_000_000, (finished - countedAt) / 1_000_000);
        out.flush();
        return verdict.exitCode();
    }

    private static String judgement(HistoryChecker.ModeFindings mode) {
        if (mode.violations() > 0) {
            return mode.violations() + " VIOLATIONS in " + mode.mode().text();
        }
        return (mode.contract() == HistoryChecker.Contract.NONE ? "as expected of " : "kept by ") + mode.mode().text();
    }
}
