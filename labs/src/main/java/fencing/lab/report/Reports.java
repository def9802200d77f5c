package fencing.lab.report;

import fencing.support.evidence.Evidence;
import fencing.support.evidence.SinkReply;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import fencing.lab.common.Json;
import java.util.List;
import java.util.Locale;

/** Writes a study's {@code evidence.json}, {@code report.md} and the self-contained {@code report.html}. */
public final class Reports {


    private Reports() {
    }

    /** Writes {@code evidence.json}, {@code report.md} and {@code report.html} of {@code study} into {@code dir}. */
    public static void write(Path dir, Evidence.Study study) {
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
        Evidence.Setup setup = study.setup();
        md.append("# Fencing study: ").append(study.caseTitle()).append(" (`--case ").append(study.caseName()).append("`)\n\n");
        md.append(String.format(Locale.ROOT, "%d of %d repeats done: **%d as expected, %d not**. Lease TTL %d s. etcd: %s. Java %s.%n%n",
                summary.repeats(), setup.repeatsAsked(), summary.passed(), summary.failed(), setup.ttlSeconds(), setup.etcd(), setup.javaVersion()));
        if (study.error() != null) {
            md.append("**The study could not finish:** ").append(study.error()).append("\n\n");
        }
        md.append("Sinks and ledgers: ").append(sinkList(study, "`", "`")).append(".\n\n");
        md.append("Contract: ").append(setup.contract()).append("\n\n");
        md.append("## Figures\n\n| figure | median | max |\n| --- | --- | --- |\n");
        String since = Clocks.since(study);
        md.append("| (a) " + since + " to the fenced verdict on A's late write, minus the TTL | ").append(Tables.millis(summary.stopToFencedVerdictMinusTtl().medianMillis()))
                .append(" | ").append(Tables.millis(summary.stopToFencedVerdictMinusTtl().maxMillis())).append(" |\n");
        md.append("| (b) the whole repeat (A told to acquire, to the final reads), minus the TTL | ").append(Tables.millis(summary.repeatMinusTtl().medianMillis()))
                .append(" | ").append(Tables.millis(summary.repeatMinusTtl().maxMillis())).append(" |\n");
        md.append("| " + since + " to the lock key seen gone | ").append(Tables.millis(summary.expiryWaitAfterStop().medianMillis()))
                .append(" | ").append(Tables.millis(summary.expiryWaitAfterStop().maxMillis())).append(" |\n\n");
        if (!study.repeats().isEmpty()) {
            md.append("## What happened\n\n").append(study.repeats().get(0).judgement().explanation()).append("\n\n");
        }
        md.append("## Repeats\n\n| repeat | A token | B token | key gone after " + since + " | outcome by mode and ledger | (a) | (b) | result |\n")
                .append("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (Evidence.Repeat repeat : study.repeats()) {
            Evidence.Lock lock = repeat.lock();
            md.append(String.format(Locale.ROOT, "| %d | %d | %d | %.0f ms (%s) | %s | %s | %s | %s |%n",
                    repeat.repeat(), lock.a().token(), lock.b().token(), lock.expiry().waitAfterStopMillis(), lock.expiry().observedBy(),
                    cell(outcomes(repeat)), Tables.millis(repeat.figures().stopToFencedVerdictMinusTtlMillis()),
                    Tables.millis(repeat.figures().repeatMinusTtlMillis()),
                    repeat.judgement().pass() ? "as expected" : "**differs**: " + String.join("; ", repeat.judgement().differences())));
        }
        for (Evidence.Repeat repeat : study.repeats()) {
            Evidence.Judgement judgement = repeat.judgement();
            Evidence.Lock lock = repeat.lock();
            md.append("\n## Repeat ").append(repeat.repeat()).append("\n\n").append(judgement.verdict()).append("\n\n");
            judgement.notes().forEach(note -> md.append("- ").append(note).append('\n'));
            md.append(judgement.notes().isEmpty() ? "" : "\n");
            if (judgement.contractNote() != null) {
                md.append("> ").append(judgement.contractNote()).append("\n\n");
            }
            md.append(String.format(Locale.ROOT, "A: token %d, lease %s (pid %s). B: token %d, lease %s. Lock key `%s`.%n%n",
                    lock.a().token(), lock.a().leaseIdHex(), lock.a().pid(), lock.b().token(), lock.b().leaseIdHex(), lock.key()));
            md.append(Clocks.markdown(repeat));
            md.append("| t (ms) | lane | event | detail |\n| ---: | --- | --- | --- |\n");
            for (Evidence.Event event : repeat.trace().events()) {
                md.append(String.format(Locale.ROOT, "| %.1f | %s | %s | %s |%n", event.tMillis(), event.lane(), cell(event.label()), cell(event.detail())));
            }
            md.append("\n| sent (ms) | received (ms) | from | request | status | verdict | value after | mark after |\n")
                    .append("| ---: | ---: | --- | --- | --- | --- | --- | --- |\n");
            for (Evidence.Call call : repeat.trace().exchanges()) {
                SinkReply response = call.response();
                md.append(String.format(Locale.ROOT, "| %.1f | %.1f | %s | `%s %s%s` | %s | %s | %s | %s |%n", call.tSentMillis(), call.tReceivedMillis(),
                        call.from(), call.method(), call.path(), call.request() == null ? "" : " " + Json.compact(call.request()),
                        call.status() < 0 ? "none" : call.status(), call.verdict() == null ? "" : call.verdict(),
                        cell(afterValue(response)), cell(afterMark(response))));
            }
        }
        return md.toString();
    }

    /** Returns each mode's and ledger's outcome in a few words, from the typed outcomes. */
    static String outcomes(Evidence.Repeat repeat) {
        java.util.List<String> parts = new java.util.ArrayList<>();
        for (Evidence.ModeOutcome mode : repeat.modes().values()) {
            parts.add(mode.mode() + ": " + (mode.cVerdict() == null ? "" : "C " + mode.cVerdict() + ", ") + "A " + mode.aLateVerdict()
                    + ", B " + mode.bVerdict() + ", ends " + mode.finalValue() + " (mark " + mode.finalHighWaterMark() + ")");
        }
        for (Evidence.LedgerOutcome ledger : repeat.ledgers().values()) {
            parts.add(ledger.ledger() + ": " + ledger.requestId() + " " + String.join(" then ", ledger.verdicts()) + ", total "
                    + ledger.finalTotal() + " (applied " + ledger.applied() + "×)");
        }
        return String.join("; ", parts);
    }

    private static String sinkList(Evidence.Study study, String open, String close) {
        java.util.List<String> parts = new java.util.ArrayList<>();
        study.setup().sinks().forEach((mode, sink) -> parts.add(mode + " = " + open + sink + close));
        return String.join(", ", parts);
    }

    private static String cell(String text) {
        return text == null ? "" : text.replace("|", "\\|").replace("\n", " ");
    }

    /** Returns the value (or, of a ledger, the total) an answer says its mode holds, or an empty string for an answer of no state. */
    private static String afterValue(SinkReply response) {
        if (response instanceof SinkReply.WriteVerdict write) {
            return valueOrNone(write.after().value());
        }
        if (response instanceof SinkReply.ModeState state) {
            return valueOrNone(state.value());
        }
        if (response instanceof SinkReply.LedgerVerdict ledger) {
            return "total " + ledger.after().total();
        }
        return response instanceof SinkReply.LedgerState state ? "total " + state.total() : "";
    }

    private static String valueOrNone(String value) {
        return value == null ? "(none)" : value;
    }

    /** Returns the high-water mark an answer says its mode or ledger holds, or an empty string for an answer of no state. */
    private static String afterMark(SinkReply response) {
        if (response instanceof SinkReply.WriteVerdict write) {
            return String.valueOf(write.after().highWaterMark());
        }
        if (response instanceof SinkReply.ModeState state) {
            return String.valueOf(state.highWaterMark());
        }
        if (response instanceof SinkReply.LedgerVerdict ledger) {
            return String.valueOf(ledger.after().highWaterMark());
        }
        return response instanceof SinkReply.LedgerState state ? String.valueOf(state.highWaterMark()) : "";
    }

    // ---------------------------------------------------------------- HTML

    static String html(Evidence.Study study) {
        Evidence.Summary summary = study.summary();
        Evidence.Setup setup = study.setup();
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Fencing study: ")
                .append(esc(study.caseName())).append("</title>\n<style>\n").append(CSS).append(ReplayHtml.CSS).append("</style>\n</head>\n<body>\n");
        html.append("<h1>Fencing study: ").append(esc(study.caseTitle())).append(" <code>--case ").append(esc(study.caseName())).append("</code></h1>\n");
        html.append("<p id=\"summary\" class=\"").append(summary.failed() == 0 && study.error() == null ? "pass" : "fail").append("\">")
                .append(String.format(Locale.ROOT, "%d of %d repeats done: %d as expected, %d not.", summary.repeats(), setup.repeatsAsked(),
                        summary.passed(), summary.failed()))
                .append(" Lease TTL ").append(setup.ttlSeconds()).append(" s. etcd: ").append(esc(setup.etcd())).append(".</p>\n");
        if (study.error() != null) {
            html.append("<p class=\"fail\" id=\"error\">The study could not finish: ").append(esc(study.error())).append("</p>\n");
        }
        html.append("<p>Sinks and ledgers: ").append(sinkList(study, "<code>", "</code>")).append(". ")
                .append(esc(setup.contract())).append("</p>\n");
        html.append("<table id=\"figures\"><thead><tr><th>figure</th><th>median</th><th>max</th></tr></thead><tbody>\n");
        String since = Clocks.since(study);
        figureRow(html, "(a) " + since + " to the fenced verdict on A's late write, minus the TTL", summary.stopToFencedVerdictMinusTtl());
        figureRow(html, "(b) the whole repeat, minus the TTL", summary.repeatMinusTtl());
        figureRow(html, since + " to the lock key seen gone", summary.expiryWaitAfterStop());
        html.append("</tbody></table>\n");
        if (!study.repeats().isEmpty()) {
            html.append("<p class=\"explanation\">").append(esc(study.repeats().get(0).judgement().explanation())).append("</p>\n");
        }
        for (Evidence.Repeat repeat : study.repeats()) {
            repeatSection(html, repeat);
        }
        // Written by the browser: a check of the rendered page can tell it was rendered, not just read.
        html.append("<p id=\"rendered-check\" class=\"note\"></p>\n<script>\n").append(RENDERED_CHECK).append(ReplayHtml.SCRIPT).append("</script>\n");
        html.append("</body>\n</html>\n");
        return html.toString();
    }

    private static void figureRow(StringBuilder html, String name, Evidence.Stats stats) {
        html.append("<tr><td>").append(esc(name)).append("</td><td>").append(Tables.millis(stats.medianMillis()))
                .append("</td><td>").append(Tables.millis(stats.maxMillis())).append("</td></tr>\n");
    }

    private static void repeatSection(StringBuilder html, Evidence.Repeat repeat) {
        Evidence.Judgement judgement = repeat.judgement();
        Evidence.Lock lock = repeat.lock();
        html.append("<section class=\"repeat\" id=\"repeat-").append(repeat.repeat()).append("\" data-pass=\"").append(judgement.pass()).append("\">\n");
        html.append("<h2>Repeat ").append(repeat.repeat()).append(": ").append(judgement.pass() ? "as expected" : "differs").append("</h2>\n");
        html.append("<p class=\"verdict ").append(judgement.pass() ? "pass" : "fail").append("\">").append(esc(judgement.verdict())).append("</p>\n");
        for (String note : judgement.notes()) {
            html.append("<p class=\"supporting note\">").append(esc(note)).append("</p>\n");
        }
        if (judgement.contractNote() != null) {
            html.append("<p class=\"contract-note\">").append(esc(judgement.contractNote())).append("</p>\n");
        }
        html.append(String.format(Locale.ROOT, "<p>A: token <b class=\"token\">%d</b>, lease <code>%s</code>. B: token <b class=\"token\">%d</b>,"
                        + " lease <code>%s</code>. The lock key was seen gone %.0f ms after %s (by the %s).</p>%n",
                lock.a().token(), lock.a().leaseIdHex(), lock.b().token(), lock.b().leaseIdHex(),
                lock.expiry().waitAfterStopMillis(), esc(Clocks.since(repeat)), lock.expiry().observedBy()));
        html.append(Clocks.html(repeat));
        html.append(Timeline.svg(repeat));
        html.append(Timeline.crowdedEnd(repeat));
        HtmlOutcomes.append(html, repeat);
        ReplayHtml.append(html, repeat);
        html.append("<table class=\"responses\"><caption>Every request to the sink and its response</caption><thead><tr>"
                + "<th>sent (ms)</th><th>received (ms)</th><th>from</th><th>request</th><th>status</th><th>verdict</th>"
                + "<th>value after</th><th>mark after</th></tr></thead><tbody>\n");
        for (Evidence.Call call : repeat.trace().exchanges()) {
            SinkReply response = call.response();
            String verdict = call.verdict() == null ? "" : call.verdict();
            html.append(String.format(Locale.ROOT, "<tr data-from=\"%s\"><td>%.1f</td><td>%.1f</td><td>%s</td><td><code>%s %s%s</code></td><td>%s</td>"
                            + "<td class=\"verdict-%s\">%s</td><td>%s</td><td>%s</td></tr>%n",
                    esc(call.from()), call.tSentMillis(), call.tReceivedMillis(), esc(call.from()), esc(call.method()), esc(call.path()),
                    call.request() == null ? "" : " " + esc(Json.compact(call.request())), call.status() < 0 ? "none" : call.status(),
                    esc(verdict), esc(verdict), esc(afterValue(response)), esc(afterMark(response))));
        }
        html.append("</tbody></table>\n</section>\n");
    }

    static String esc(String text) {
        if (text == null) {
            return "";
        }
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
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
            ".verdict-accepted { color: #2e7d32; } .verdict-rejected { color: #c62828; font-weight: 600; } .verdict-duplicate { color: #6a1b9a; }"
                + " .verdict-lost { color: #bf360c; font-weight: 600; }",
            ".explanation, .contract-note { max-width: 900px; } .contract-note { border-left: 3px solid #90a4ae; padding-left: 8px; }",
            ".note { color: #546e7a; font-size: 12px; }",
            "svg.timeline, svg.timeline-inset { display: block; margin: 12px 0; font: 11px system-ui, sans-serif; background: #fafafa; border: 1px solid #eceff1; }",
            "svg .lane-name { font-weight: 700; font-size: 13px; }",
            "svg .lane-line { stroke-width: 1.5; opacity: 0.5; }",
            "svg .leader { stroke: #b0bec5; stroke-width: 1; }",
            "svg .ttl { stroke: #9e9e9e; stroke-dasharray: 4 3; }",
            "svg .ran-out { stroke: #8e24aa; stroke-dasharray: 2 3; }",
            "svg .axis, svg .tick { stroke: #607d8b; }",
            "svg .tick-label, svg .span-label { fill: #546e7a; font-size: 10px; }",
            "");
}
