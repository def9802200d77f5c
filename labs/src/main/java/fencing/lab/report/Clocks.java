package fencing.lab.report;

import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * The two clocks of the slow-clock case side by side, as the console, {@code report.md} and {@code report.html} show them:
 * what A's own clock counted and its timer said, and what etcd, counting on the machine's clock, said of A's lease.
 */
final class Clocks {

    private Clocks() {
    }

    /**
     * Returns the moment a repeat's expiry is counted from: SIGSTOP where A was frozen, the cut where A was cut off from etcd,
     * A taking the lock where it ran on with a lease it never renewed.
     */
    static String since(Evidence.Repeat repeat) {
        if (hasA(repeat, EventKind.FROZEN)) {
            return "SIGSTOP";
        }
        return hasA(repeat, EventKind.CUT_OFF) ? "the cut" : "A took the lock";
    }

    private static boolean hasA(Evidence.Repeat repeat, EventKind kind) {
        return repeat.trace().events().stream().anyMatch(e -> e.lane() == Evidence.Lane.A && e.kind() == kind);
    }

    /** Returns what a study's figures are counted from: as its first repeat's, SIGSTOP when it has none. */
    static String since(Evidence.Study study) {
        return study.repeats().isEmpty() ? "SIGSTOP" : since(study.repeats().get(0));
    }

    /** Prints one line per clock, where the repeat has A's timer reading; nothing otherwise. */
    static void print(PrintWriter say, Evidence.Repeat repeat) {
        Evidence.Lock lock = repeat.lock();
        if (lock.clocks() == null) {
            return;
        }
        say.printf(Locale.ROOT, "  two clocks at A's check, +%.0f ms:%n", (lock.clocks().checkedAtMicros() - repeat.trace().startedAtMicros()) / 1000.0);
        for (List<String> row : rows(repeat)) {
            say.printf(Locale.ROOT, "    %-34s counted %-8s → %s%n", row.get(0), row.get(1), row.get(2));
        }
    }

    /** Returns a Markdown table of the two clocks, or an empty string where the repeat has no timer reading. */
    static String markdown(Evidence.Repeat repeat) {
        List<List<String>> rows = rows(repeat);
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("| clock | counted since A asked for the lock | says of A's lease |\n| --- | --- | --- |\n");
        rows.forEach(row -> md.append("| ").append(String.join(" | ", row)).append(" |\n"));
        return md.append('\n').toString();
    }

    /** Returns an HTML table of the two clocks, or an empty string where the repeat has no timer reading. */
    static String html(Evidence.Repeat repeat) {
        List<List<String>> rows = rows(repeat);
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder html = new StringBuilder("<table class=\"clocks\"><caption>Two clocks at A's check of its lease</caption><thead><tr>"
                + "<th>clock</th><th>counted since A asked for the lock</th><th>says of A's lease</th></tr></thead><tbody>\n");
        for (List<String> row : rows) {
            html.append("<tr>");
            row.forEach(cell -> html.append("<td>").append(Reports.esc(cell)).append("</td>"));
            html.append("</tr>\n");
        }
        return html.append("</tbody></table>\n").toString();
    }

    /** Returns the real time, in ms since the repeat began, at which A's timer ends the lease, or {@code null} without a reading. */
    static Double timerEndsAt(Evidence.Repeat repeat) {
        Evidence.Lock lock = repeat.lock();
        Evidence.Clocks clocks = lock.clocks();
        if (clocks == null) {
            return null;
        }
        double askedAt = (clocks.checkedAtMicros() - repeat.trace().startedAtMicros()) / 1000.0 - clocks.realMillis();
        return askedAt + lock.ttlSeconds() * 1000.0 / clocks.clockRate();
    }

    // One row per clock, or nothing: every view takes the same figures, so they cannot disagree.
    private static List<List<String>> rows(Evidence.Repeat repeat) {
        Evidence.Lock lock = repeat.lock();
        Evidence.Clocks clocks = lock.clocks();
        if (clocks == null) {
            return List.of();
        }
        double ttlMillis = lock.ttlSeconds() * 1000.0;
        Evidence.Event deleted = repeat.trace().events().stream().filter(e -> e.kind() == EventKind.KEY_DELETED).findFirst().orElse(null);
        String etcdSays = clocks.etcdTtlLeftSeconds() < 0
                ? "no such lease: it expired" + (deleted == null ? "" : String.format(Locale.ROOT, ", key seen gone at +%.0f ms", deleted.tMillis()))
                : clocks.etcdTtlLeftSeconds() + " s left";
        return List.of(
                List.of(String.format(Locale.ROOT, "A's own clock (%s× the machine's)", clocks.clockRate()),
                        String.format(Locale.ROOT, "%.0f ms", clocks.aClockMillis()),
                        String.format(Locale.ROOT, "%.0f ms of the TTL left: %s", clocks.aTimerLeftMillis(),
                                clocks.aTimerSaysValid() ? "valid, so A writes" : "spent, so A does not write")),
                List.of("etcd (the machine's clock)", String.format(Locale.ROOT, "%.0f ms", clocks.realMillis()),
                        String.format(Locale.ROOT, "%s (TTL %.0f ms)", etcdSays, ttlMillis)));
    }
}
