package fencing.lab.report;

import fencing.lab.common.Json;
import fencing.lab.history.HistoryChecker;
import fencing.lab.history.History;
import fencing.support.evidence.Evidence;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Writes the chaos run's {@code evidence.json}, {@code report.md} and {@code report.html}, with the accepted tokens plotted per mode. */
public final class ChaosReport {

    private static final int WIDTH = 1000;
    private static final int HEIGHT = 260;
    private static final int LEFT = 60;
    private static final int BOTTOM = 30;

    private ChaosReport() {
    }

    /**
     * Writes {@code evidence.json}, {@code report.md} and {@code report.html} of the chaos case into {@code dir}: the evidence
     * as it is, the reports from it, from the checker's {@code findings} and from the recorded {@code history}.
     */
    public static void write(Path dir, Evidence.Study study, HistoryChecker.Findings findings, History history) {
        try {
            Files.writeString(dir.resolve(Evidence.FILE), Json.pretty(study) + "\n", StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("report.md"), markdown(study), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("report.html"), html(study, findings, history), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the chaos reports in " + dir, e);
        }
    }

    static String markdown(Evidence.Study study) {
        Evidence.Chaos r = study.chaos();
        StringBuilder md = new StringBuilder("# Fencing study: many writers, random freezes, a checked history (`--case chaos`)\n\n");
        md.append(String.format(Locale.ROOT, "%d writers for %d s, lease TTL %d s, %d freezes and %d cuts from etcd by the nemesis, %.1f recorded"
                + " writes per second. **%s**.%n%n", r.writers(), r.durationSeconds(), study.setup().ttlSeconds(), r.freezes(), r.partitions(), r.writesPerSecond(),
                r.differences().isEmpty() ? "As expected" : "Not as expected: " + String.join("; ", r.differences())));
        md.append("Replay the same faults with `").append(r.replay()).append("` (seed ").append(r.seed()).append(").\n\n");
        md.append("History: `").append(r.history()).append("`; check it again with `./kit check-history ").append(r.history()).append("`.\n\n");
        r.problems().forEach(p -> md.append("- cannot judge: ").append(p).append('\n'));
        md.append("| mode | sink | writes | accepted | rejected | no verdict | stale writes accepted | lost updates | expired-holder writes accepted | complete |\n")
                .append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (Evidence.ChaosMode m : r.modes().values()) {
            md.append(String.format(Locale.ROOT, "| %s | `%s` | %d | %d | %d | %d | %d | %d | %d | %s |%n", m.mode(), m.sink(), m.writes(),
                    m.accepted(), m.rejected(), m.noVerdict(), m.staleAccepted(), m.lostUpdates(), m.expiredHolderAccepted(), m.complete() ? "yes" : "no"));
        }
        md.append("\nA stale write is accepted with a token below one the sink accepted before it was sent; a lost update is the newer")
                .append(" owner's write that a stale one overwrote. An expired-holder write was sent after a newer token was granted: a")
                .append(" high-water mark accepts it when no newer token has reached the sink yet (the narrower contract), so it is counted, not a violation.\n");
        for (Evidence.ChaosMode m : r.modes().values()) {
            if (!m.examples().isEmpty()) {
                md.append("\n### ").append(m.mode()).append(": examples from the history\n\n");
                m.examples().forEach(e -> md.append("- ").append(e).append('\n'));
            }
        }
        return md.toString();
    }

    static String html(Evidence.Study study, HistoryChecker.Findings findings, History history) {
        Evidence.Chaos r = study.chaos();
        StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Fencing study: chaos</title>\n")
                .append("<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:1060px}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}svg{border:1px solid #ddd;margin:.5em 0}")
                .append(HistoryView.CSS).append("</style>\n</head>\n<body>\n");
        html.append("<h1>Fencing study: many writers, random freezes, a checked history <code>--case chaos</code></h1>\n");
        html.append(String.format(Locale.ROOT, "<p>%d writers for %d s, lease TTL %d s, <span id=\"freezes\">%d</span> freezes,"
                        + " <span id=\"partitions\">%d</span> cuts from etcd, %.1f recorded writes per second. <strong>%s</strong></p>%n",
                r.writers(), r.durationSeconds(), study.setup().ttlSeconds(), r.freezes(), r.partitions(), r.writesPerSecond(),
                Reports.esc(r.differences().isEmpty() ? "As expected." : "Not as expected: " + String.join("; ", r.differences()))));
        html.append("<p>Seed <code id=\"seed\">").append(r.seed()).append("</code>: replay the same faults with <code id=\"replay\">")
                .append(Reports.esc(r.replay())).append("</code>.</p>\n");
        html.append("<table><tr><th>mode</th><th>writes</th><th>accepted</th><th>rejected</th><th>stale accepted</th><th>lost updates</th>")
                .append("<th>expired-holder accepted</th><th>complete</th></tr>\n");
        for (Evidence.ChaosMode m : r.modes().values()) {
            html.append(String.format(Locale.ROOT, "<tr data-mode=\"%s\"><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td class=\"stale-count\">%d</td><td>%d</td>"
                            + "<td class=\"expired-count\">%d</td><td>%s</td></tr>%n", Reports.esc(m.mode()), Reports.esc(m.mode()), m.writes(), m.accepted(),
                    m.rejected(), m.staleAccepted(), m.lostUpdates(), m.expiredHolderAccepted(), m.complete() ? "yes" : "no"));
        }
        html.append("</table>\n");
        html.append(HistoryView.html(r, findings, history));
        for (HistoryChecker.ModeFindings m : findings.modes().values()) {
            html.append("<h2>").append(Reports.esc(m.mode().text())).append(": tokens accepted over time</h2>\n").append(plot(r, m));
        }
        return html.append("</body>\n</html>\n").toString();
    }

    /** Plots each accepted write's token against the time its answer came; stale acceptances are red crosses. */
    static String plot(Evidence.Chaos r, HistoryChecker.ModeFindings mode) {
        List<HistoryChecker.Point> points = mode.accepts();
        long minToken = points.stream().mapToLong(HistoryChecker.Point::token).min().orElse(0);
        long maxToken = Math.max(minToken + 1, points.stream().mapToLong(HistoryChecker.Point::token).max().orElse(1));
        double span = Math.max(1, r.endedAtMicros() - r.startedAtMicros());
        double plotWidth = WIDTH - LEFT - 10.0;
        double plotHeight = HEIGHT - BOTTOM - 10.0;
        StringBuilder svg = new StringBuilder(String.format(Locale.ROOT, "<svg class=\"tokens\" data-mode=\"%s\" xmlns=\"http://www.w3.org/2000/svg\""
                + " width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"Tokens accepted over time in mode %s; %d stale\">%n",
                Reports.esc(mode.mode().text()), WIDTH, HEIGHT, Reports.esc(mode.mode().text()), mode.staleAccepted()));
        svg.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"14\" font-size=\"11\">token %d</text><text x=\"4\" y=\"%d\" font-size=\"11\">%d</text>%n",
                maxToken, HEIGHT - BOTTOM, minToken));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"11\">time since the writers started: 0 to %.1f s</text>%n",
                LEFT, HEIGHT - 8, span / 1e6));
        for (HistoryChecker.Point p : points) {
            double x = LEFT + (p.atMicros() - r.startedAtMicros()) / span * plotWidth;
            double y = 10 + (maxToken - p.token()) / (double) (maxToken - minToken) * plotHeight;
            if (p.stale()) {
                svg.append(String.format(Locale.ROOT, "<path class=\"stale\" d=\"M%.1f %.1fl6 6m0 -6l-6 6\" stroke=\"#c62828\" stroke-width=\"2\">"
                        + "<title>stale: %s token %d</title></path>%n", x - 3, y - 3, Reports.esc(p.writer()), p.token()));
            } else {
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"#2e7d32\"/>%n", x, y));
            }
        }
        return svg.append("</svg>\n").toString();
    }
}
