package fencing.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes a study's {@code evidence.json}, {@code report.md} and the self-contained {@code report.html}. */
final class Reports {

    static final List<String> LANES = List.of("A", "etcd", "B", "sink");
    private static final Map<String, String> LANE_COLORS = Map.of("A", "#1565c0", "etcd", "#6a1b9a", "B", "#ef6c00", "sink", "#37474f");
    private static final int WIDTH = 1120;
    private static final int LEFT = 70;
    private static final int RIGHT = 24;
    private static final int ROW = 14;
    private static final double CHAR_WIDTH = 6.4;
    private static final double LABEL_GAP = 12;

    private Reports() {
    }

    static void write(Path dir, Evidence.Study study) {
        try {
            Files.writeString(dir.resolve("evidence.json"), Json.pretty(study) + "\n", StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("report.md"), markdown(study), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("report.html"), html(study), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the reports in " + dir, e);
        }
    }

    // ---------------------------------------------------------------- Markdown

    static String markdown(Evidence.Study study) {
        StringBuilder md = new StringBuilder();
        Evidence.Summary summary = study.summary();
        md.append("# Fencing study: ").append(study.caseTitle()).append(" (`--case ").append(study.caseName()).append("`)\n\n");
        md.append(String.format(Locale.ROOT, "%d of %d repeats done: **%d as expected, %d not**. Lease TTL %d s. etcd: %s. Java %s.%n%n",
                summary.repeats(), study.repeatsAsked(), summary.passed(), summary.failed(), study.ttlSeconds(), study.etcd(), study.javaVersion()));
        if (study.error() != null) {
            md.append("**The study could not finish:** ").append(study.error()).append("\n\n");
        }
        md.append("Sinks: plain = `").append(study.sinks().get("plain")).append("`, fenced = `").append(study.sinks().get("fenced")).append("`.\n\n");
        md.append("Contract: ").append(study.contract()).append("\n\n");
        md.append("## Figures\n\n| figure | median | max |\n| --- | --- | --- |\n");
        md.append("| (a) SIGSTOP to the fenced verdict on A's late write, minus the TTL | ").append(Tables.millis(summary.stopToFencedVerdictMinusTtl().medianMillis()))
                .append(" | ").append(Tables.millis(summary.stopToFencedVerdictMinusTtl().maxMillis())).append(" |\n");
        md.append("| (b) the whole repeat (A told to acquire, to the final reads), minus the TTL | ").append(Tables.millis(summary.repeatMinusTtl().medianMillis()))
                .append(" | ").append(Tables.millis(summary.repeatMinusTtl().maxMillis())).append(" |\n");
        md.append("| SIGSTOP to the lock key seen gone | ").append(Tables.millis(summary.expiryWaitAfterStop().medianMillis()))
                .append(" | ").append(Tables.millis(summary.expiryWaitAfterStop().maxMillis())).append(" |\n\n");
        if (!study.repeats().isEmpty()) {
            md.append("## What happened\n\n").append(study.repeats().get(0).explanation()).append("\n\n");
        }
        md.append("## Repeats\n\n| repeat | A token | B token | key gone after SIGSTOP | plain | fenced | (a) | (b) | result |\n")
                .append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (Evidence.Repeat repeat : study.repeats()) {
            Evidence.ModeOutcome plain = repeat.modes().get("plain");
            Evidence.ModeOutcome fenced = repeat.modes().get("fenced");
            md.append(String.format(Locale.ROOT, "| %d | %d | %d | %.0f ms (%s) | A %s, ends %s | A %s, ends %s (mark %d) | %s | %s | %s |%n",
                    repeat.repeat(), repeat.a().token(), repeat.b().token(), repeat.expiry().waitAfterStopMillis(), repeat.expiry().observedBy(),
                    plain.aLateVerdict(), plain.finalValue(), fenced.aLateVerdict(), fenced.finalValue(), fenced.finalHighWaterMark(),
                    Tables.millis(repeat.figures().stopToFencedVerdictMinusTtlMillis()), Tables.millis(repeat.figures().repeatMinusTtlMillis()),
                    repeat.pass() ? "as expected" : "**differs**: " + String.join("; ", repeat.differences())));
        }
        for (Evidence.Repeat repeat : study.repeats()) {
            md.append("\n## Repeat ").append(repeat.repeat()).append("\n\n").append(repeat.verdict()).append("\n\n");
            if (repeat.contractNote() != null) {
                md.append("> ").append(repeat.contractNote()).append("\n\n");
            }
            md.append(String.format(Locale.ROOT, "A: token %d, lease %s (pid %s). B: token %d, lease %s. Lock key `%s`.%n%n",
                    repeat.a().token(), repeat.a().leaseIdHex(), repeat.a().pid(), repeat.b().token(), repeat.b().leaseIdHex(), repeat.lockKey()));
            md.append("| t (ms) | lane | event | detail |\n| ---: | --- | --- | --- |\n");
            for (Evidence.Event event : repeat.events()) {
                md.append(String.format(Locale.ROOT, "| %.1f | %s | %s | %s |%n", event.tMillis(), event.lane(), cell(event.label()), cell(event.detail())));
            }
            md.append("\n| sent (ms) | received (ms) | from | request | status | verdict | value after | mark after |\n")
                    .append("| ---: | ---: | --- | --- | --- | --- | --- | --- |\n");
            for (Evidence.Call call : repeat.exchanges()) {
                var response = Json.MAPPER.valueToTree(call.response());
                md.append(String.format(Locale.ROOT, "| %.1f | %.1f | %s | `%s %s%s` | %s | %s | %s | %s |%n", call.tSentMillis(), call.tReceivedMillis(),
                        call.from(), call.method(), call.path(), call.request() == null ? "" : " " + Json.compact(call.request()),
                        call.status() < 0 ? "none" : call.status(), call.verdict() == null ? "" : call.verdict(),
                        cell(afterValue(response)), cell(afterMark(response))));
            }
        }
        return md.toString();
    }

    private static String cell(String text) {
        return text == null ? "" : text.replace("|", "\\|").replace("\n", " ");
    }

    private static String afterValue(com.fasterxml.jackson.databind.JsonNode response) {
        if (response == null || response.isNull()) {
            return "";
        }
        var node = response.has("after") ? response.get("after").get("value") : response.get("value");
        return node == null ? "" : node.isNull() ? "(none)" : node.asText();
    }

    private static String afterMark(com.fasterxml.jackson.databind.JsonNode response) {
        if (response == null || response.isNull()) {
            return "";
        }
        var node = response.has("after") ? response.get("after").get("highWaterMark") : response.get("highWaterMark");
        return node == null ? "" : node.asText();
    }

    // ---------------------------------------------------------------- HTML

    static String html(Evidence.Study study) {
        Evidence.Summary summary = study.summary();
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Fencing study: ")
                .append(esc(study.caseName())).append("</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        html.append("<h1>Fencing study: ").append(esc(study.caseTitle())).append(" <code>--case ").append(esc(study.caseName())).append("</code></h1>\n");
        html.append("<p id=\"summary\" class=\"").append(summary.failed() == 0 && study.error() == null ? "pass" : "fail").append("\">")
                .append(String.format(Locale.ROOT, "%d of %d repeats done: %d as expected, %d not.", summary.repeats(), study.repeatsAsked(),
                        summary.passed(), summary.failed()))
                .append(" Lease TTL ").append(study.ttlSeconds()).append(" s. etcd: ").append(esc(study.etcd())).append(".</p>\n");
        if (study.error() != null) {
            html.append("<p class=\"fail\" id=\"error\">The study could not finish: ").append(esc(study.error())).append("</p>\n");
        }
        html.append("<p>Sinks: plain = <code>").append(esc(study.sinks().get("plain"))).append("</code>, fenced = <code>")
                .append(esc(study.sinks().get("fenced"))).append("</code>. ").append(esc(study.contract())).append("</p>\n");
        html.append("<table id=\"figures\"><thead><tr><th>figure</th><th>median</th><th>max</th></tr></thead><tbody>\n");
        figureRow(html, "(a) SIGSTOP to the fenced verdict on A's late write, minus the TTL", summary.stopToFencedVerdictMinusTtl());
        figureRow(html, "(b) the whole repeat, minus the TTL", summary.repeatMinusTtl());
        figureRow(html, "SIGSTOP to the lock key seen gone", summary.expiryWaitAfterStop());
        html.append("</tbody></table>\n");
        if (!study.repeats().isEmpty()) {
            html.append("<p class=\"explanation\">").append(esc(study.repeats().get(0).explanation())).append("</p>\n");
        }
        for (Evidence.Repeat repeat : study.repeats()) {
            repeatSection(html, repeat);
        }
        // Written by the browser: a check of the rendered page can tell it was rendered, not just read.
        html.append("<p id=\"rendered-check\" class=\"note\"></p>\n<script>\n").append(RENDERED_CHECK).append("</script>\n");
        html.append("</body>\n</html>\n");
        return html.toString();
    }

    private static void figureRow(StringBuilder html, String name, Evidence.Stats stats) {
        html.append("<tr><td>").append(esc(name)).append("</td><td>").append(Tables.millis(stats.medianMillis()))
                .append("</td><td>").append(Tables.millis(stats.maxMillis())).append("</td></tr>\n");
    }

    private static void repeatSection(StringBuilder html, Evidence.Repeat repeat) {
        html.append("<section class=\"repeat\" id=\"repeat-").append(repeat.repeat()).append("\" data-pass=\"").append(repeat.pass()).append("\">\n");
        html.append("<h2>Repeat ").append(repeat.repeat()).append(": ").append(repeat.pass() ? "as expected" : "differs").append("</h2>\n");
        html.append("<p class=\"verdict ").append(repeat.pass() ? "pass" : "fail").append("\">").append(esc(repeat.verdict())).append("</p>\n");
        if (repeat.contractNote() != null) {
            html.append("<p class=\"contract-note\">").append(esc(repeat.contractNote())).append("</p>\n");
        }
        html.append(String.format(Locale.ROOT, "<p>A: token <b class=\"token\">%d</b>, lease <code>%s</code>. B: token <b class=\"token\">%d</b>,"
                        + " lease <code>%s</code>. The lock key was seen gone %.0f ms after SIGSTOP (by the %s).</p>%n",
                repeat.a().token(), repeat.a().leaseIdHex(), repeat.b().token(), repeat.b().leaseIdHex(),
                repeat.expiry().waitAfterStopMillis(), repeat.expiry().observedBy()));
        html.append(svg(repeat));
        html.append("<table class=\"modes\"><thead><tr><th>mode</th><th>sink</th><th>A's late write</th><th>expected</th>"
                + "<th>final value</th><th>expected</th><th>mark</th></tr></thead><tbody>\n");
        for (Evidence.ModeOutcome mode : repeat.modes().values()) {
            html.append("<tr class=\"").append(mode.asExpected() ? "pass" : "fail").append("\"><td>").append(esc(mode.mode())).append("</td><td>")
                    .append(esc(mode.sink())).append("</td><td class=\"verdict-").append(esc(mode.aLateVerdict())).append("\">").append(esc(mode.aLateVerdict()))
                    .append("</td><td>").append(esc(mode.expectedALateVerdict())).append("</td><td>").append(esc(mode.finalValue()))
                    .append("</td><td>").append(esc(mode.expectedFinalValue())).append("</td><td>").append(mode.finalHighWaterMark()).append("</td></tr>\n");
        }
        html.append("</tbody></table>\n");
        html.append("<table class=\"responses\"><caption>Every request to the sink and its response</caption><thead><tr>"
                + "<th>sent (ms)</th><th>received (ms)</th><th>from</th><th>request</th><th>status</th><th>verdict</th>"
                + "<th>value after</th><th>mark after</th></tr></thead><tbody>\n");
        for (Evidence.Call call : repeat.exchanges()) {
            var response = Json.MAPPER.valueToTree(call.response());
            String verdict = call.verdict() == null ? "" : call.verdict();
            html.append(String.format(Locale.ROOT, "<tr data-from=\"%s\"><td>%.1f</td><td>%.1f</td><td>%s</td><td><code>%s %s%s</code></td><td>%s</td>"
                            + "<td class=\"verdict-%s\">%s</td><td>%s</td><td>%s</td></tr>%n",
                    esc(call.from()), call.tSentMillis(), call.tReceivedMillis(), esc(call.from()), esc(call.method()), esc(call.path()),
                    call.request() == null ? "" : " " + esc(Json.compact(call.request())), call.status() < 0 ? "none" : call.status(),
                    esc(verdict), esc(verdict), esc(afterValue(response)), esc(afterMark(response))));
        }
        html.append("</tbody></table>\n</section>\n");
    }

    /** Draws the repeat's timeline: one lane each for A, etcd, B and the sink, time running left to right. */
    static String svg(Evidence.Repeat repeat) {
        List<Evidence.Event> events = repeat.events();
        double tMin = 0;
        double tMax = repeat.figures().repeatMillis();
        for (Evidence.Event event : events) {
            tMin = Math.min(tMin, event.tMillis());
            tMax = Math.max(tMax, event.tMillis());
        }
        tMax += (tMax - tMin) * 0.02 + 1;
        double span = tMax - tMin;
        double from = tMin;
        double plot = WIDTH - LEFT - RIGHT;
        java.util.function.DoubleUnaryOperator x = t -> LEFT + (t - from) / span * plot;

        Map<String, List<Placed>> placed = new LinkedHashMap<>();
        Map<String, Integer> rows = new LinkedHashMap<>();
        for (String lane : LANES) {
            List<Double> rowEnds = new ArrayList<>();
            List<Placed> lanePlaced = new ArrayList<>();
            for (Evidence.Event event : events) {
                if (!event.lane().equals(lane)) {
                    continue;
                }
                double at = x.applyAsDouble(event.tMillis());
                double width = event.label().length() * CHAR_WIDTH + 6;
                boolean anchorEnd = at + width > WIDTH - 4;
                double startX = anchorEnd ? at - width : at;
                int row = 0;
                while (row < rowEnds.size() && rowEnds.get(row) > startX - LABEL_GAP) {
                    row++;
                }
                if (row == rowEnds.size()) {
                    rowEnds.add(0.0);
                }
                rowEnds.set(row, startX + width);
                lanePlaced.add(new Placed(event, at, row, anchorEnd));
            }
            placed.put(lane, lanePlaced);
            rows.put(lane, Math.max(1, rowEnds.size()));
        }
        int top = 28;
        Map<String, Integer> laneY = new LinkedHashMap<>();
        int y = top;
        for (String lane : LANES) {
            laneY.put(lane, y + 8);
            y += 22 + rows.get(lane) * ROW;
        }
        int axisY = y + 16;
        int height = axisY + 30;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                + " role=\"img\" aria-label=\"Timeline of repeat %d: lanes A, etcd, B and sink\">%n", WIDTH, height, WIDTH, height, repeat.repeat()));
        svg.append("<defs><pattern id=\"frozen-").append(repeat.repeat()).append("\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\""
                + " patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#e3f2fd\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\""
                + " stroke=\"#90caf9\" stroke-width=\"3\"/></pattern></defs>\n");

        // Spans first, so that markers and labels draw over them.
        Double stop = timeOf(events, "A", "SIGSTOP");
        Double cont = timeOf(events, "A", "SIGCONT");
        if (stop != null) {
            double x1 = x.applyAsDouble(stop);
            double x2 = x.applyAsDouble(cont != null ? cont : tMax);
            int ay = laneY.get("A");
            svg.append(String.format(Locale.ROOT, "<rect class=\"frozen\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"url(#frozen-%d)\"/>%n",
                    x1, ay - 7, Math.max(1, x2 - x1), 14, repeat.repeat()));
            svg.append(String.format(Locale.ROOT, "<text class=\"span-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">A frozen (SIGSTOP → SIGCONT)</text>%n",
                    (x1 + x2) / 2, ay - 10));
            double ttlLine = x.applyAsDouble(stop + repeat.ttlSeconds() * 1000.0);
            svg.append(String.format(Locale.ROOT, "<line class=\"ttl\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>%n", ttlLine, top - 8, ttlLine, axisY));
            svg.append(String.format(Locale.ROOT, "<text class=\"span-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"start\">SIGSTOP + TTL</text>%n",
                    ttlLine + 3, axisY - 4));
        }
        if (repeat.expiry() != null) {
            double ranOut = x.applyAsDouble((repeat.expiry().lastKeepAliveMicros() - repeat.startedAtMicros()) / 1000.0 + repeat.ttlSeconds() * 1000.0);
            svg.append(String.format(Locale.ROOT, "<line class=\"ran-out\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>%n", ranOut, top - 8, ranOut, axisY));
            svg.append(String.format(Locale.ROOT, "<text class=\"span-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"end\">last keepalive + TTL</text>%n",
                    ranOut - 3, axisY - 4));
        }
        int ey = laneY.get("etcd");
        Double aLeaseEnd = repeat.expiry() == null ? null : (repeat.expiry().observedAtMicros() - repeat.startedAtMicros()) / 1000.0;
        leaseBar(svg, x, repeat.a().tMillis(), aLeaseEnd == null ? tMax : aLeaseEnd, ey, "#bbdefb", "A's lease " + repeat.a().leaseIdHex());
        Double released = timeOf(events, "B", "releases");
        leaseBar(svg, x, repeat.b().tMillis(), released == null ? tMax : released, ey, "#ffe0b2", "B's lease " + repeat.b().leaseIdHex());

        for (String lane : LANES) {
            int ly = laneY.get(lane);
            svg.append("<g class=\"lane\" data-lane=\"").append(lane).append("\">\n");
            svg.append(String.format(Locale.ROOT, "<text class=\"lane-name\" x=\"10\" y=\"%d\" fill=\"%s\">%s</text>%n", ly + 4, LANE_COLORS.get(lane), lane));
            svg.append(String.format(Locale.ROOT, "<line class=\"lane-line\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>%n",
                    LEFT, ly, WIDTH - RIGHT, ly, LANE_COLORS.get(lane)));
            for (Placed p : placed.get(lane)) {
                String verdict = p.event.label().endsWith(" accepted") ? "accepted" : p.event.label().endsWith(" rejected") ? "rejected" : "";
                String color = verdict.equals("accepted") ? "#2e7d32" : verdict.equals("rejected") ? "#c62828" : LANE_COLORS.get(lane);
                int textY = ly + 16 + p.row * ROW;
                svg.append("<g class=\"event\" data-lane=\"").append(lane).append("\"")
                        .append(verdict.isEmpty() ? "" : " data-verdict=\"" + verdict + "\"").append(">");
                svg.append("<title>").append(esc(String.format(Locale.ROOT, "+%.1f ms: %s. %s", p.event.tMillis(), p.event.label(), p.event.detail())))
                        .append("</title>");
                if (p.row > 0) {
                    svg.append(String.format(Locale.ROOT, "<line class=\"leader\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", p.at, ly + 4, p.at, textY - 9));
                }
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"%s\"/>", p.at, ly, color));
                svg.append(String.format(Locale.ROOT, "<text class=\"event-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"%s\" fill=\"%s\">%s</text></g>%n",
                        p.anchorEnd ? p.at + 3 : p.at - 3, textY, p.anchorEnd ? "end" : "start", color, esc(p.event.label())));
            }
            svg.append("</g>\n");
        }
        svg.append(String.format(Locale.ROOT, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>%n", LEFT, axisY, WIDTH - RIGHT, axisY));
        double step = span > 4000 ? 1000 : span > 1500 ? 500 : span > 600 ? 200 : 100;
        for (double t = Math.ceil(tMin / step) * step; t <= tMax; t += step) {
            double tx = x.applyAsDouble(t);
            svg.append(String.format(Locale.ROOT, "<line class=\"tick\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text class=\"tick-label\" x=\"%.1f\" y=\"%d\""
                    + " text-anchor=\"middle\">%s s</text>%n", tx, axisY, tx, axisY + 4, tx, axisY + 16, trim(t / 1000)));
        }
        svg.append(String.format(Locale.ROOT, "<text class=\"tick-label\" x=\"%d\" y=\"%d\">time since A was told to acquire</text>%n", LEFT, axisY + 28));
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static void leaseBar(StringBuilder svg, java.util.function.DoubleUnaryOperator x, double from, double to, int y, String fill, String label) {
        double x1 = x.applyAsDouble(from);
        double x2 = x.applyAsDouble(to);
        svg.append(String.format(Locale.ROOT, "<rect class=\"lease\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"8\" fill=\"%s\" rx=\"3\"><title>%s</title></rect>%n",
                x1, y - 4, Math.max(1, x2 - x1), fill, esc(label)));
    }

    private static Double timeOf(List<Evidence.Event> events, String lane, String label) {
        for (Evidence.Event event : events) {
            if (event.lane().equals(lane) && event.label().equals(label)) {
                return event.tMillis();
            }
        }
        return null;
    }

    private static String trim(double seconds) {
        String text = String.format(Locale.ROOT, "%.1f", seconds);
        return text.endsWith(".0") ? text.substring(0, text.length() - 2) : text;
    }

    static String esc(String text) {
        if (text == null) {
            return "";
        }
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private record Placed(Evidence.Event event, double at, int row, boolean anchorEnd) {
    }

    private static final String RENDERED_CHECK = String.join("\n",
            "(function () {",
            "  var lanes = document.querySelectorAll('svg.timeline g.lane').length;",
            "  var verdicts = document.querySelectorAll('svg.timeline g.event[data-lane=\"sink\"][data-verdict]').length;",
            "  document.getElementById('rendered-check').textContent =",
            "      'Rendered: ' + lanes + ' lanes and ' + verdicts + ' sink verdicts on the timelines.';",
            "})();",
            "");

    private static final String CSS = String.join("\n",
            "body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #212121; max-width: 1180px; }",
            "h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; }",
            "code { font: 12px ui-monospace, monospace; }",
            "table { border-collapse: collapse; margin: 12px 0; font-size: 13px; }",
            "th, td { border: 1px solid #cfd8dc; padding: 3px 8px; text-align: left; vertical-align: top; }",
            "th { background: #eceff1; } caption { text-align: left; font-weight: 600; padding: 4px 0; }",
            ".pass { color: #1b5e20; } .fail { color: #b71c1c; font-weight: 600; }",
            "tr.fail td { background: #ffebee; }",
            ".verdict-accepted { color: #2e7d32; } .verdict-rejected { color: #c62828; font-weight: 600; }",
            ".explanation, .contract-note { max-width: 900px; } .contract-note { border-left: 3px solid #90a4ae; padding-left: 8px; }",
            ".note { color: #78909c; font-size: 12px; }",
            "svg.timeline { display: block; margin: 12px 0; font: 11px system-ui, sans-serif; background: #fafafa; border: 1px solid #eceff1; }",
            "svg .lane-name { font-weight: 700; font-size: 13px; }",
            "svg .lane-line { stroke-width: 1.5; opacity: 0.5; }",
            "svg .leader { stroke: #b0bec5; stroke-width: 1; }",
            "svg .ttl { stroke: #9e9e9e; stroke-dasharray: 4 3; }",
            "svg .ran-out { stroke: #8e24aa; stroke-dasharray: 2 3; }",
            "svg .axis, svg .tick { stroke: #607d8b; }",
            "svg .tick-label, svg .span-label { fill: #546e7a; font-size: 10px; }",
            "");
}
