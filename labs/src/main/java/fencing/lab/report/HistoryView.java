package fencing.lab.report;

import fencing.lab.history.History;
import fencing.lab.history.HistoryChecker;
import fencing.lab.history.HistoryLine;
import fencing.lab.sink.Mode;
import fencing.support.evidence.Evidence;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The chaos run's history as a zoomable picture: a lane per writer, each write its interval from sent to answered,
 * coloured by verdict, stale acceptances and expired holders' writes marked, the nemesis's freezes shaded and its cuts from
 * etcd hatched.
 */
final class HistoryView {

    private static final int WIDTH = 1000;
    private static final int ROW = 7;
    private static final int GAP = 12;

    static final String CSS = String.join("",
            ".history-view{display:flex;gap:6px;align-items:flex-start}.history-lanes{font:12px system-ui;text-align:right}",
            ".history-lanes div{box-sizing:border-box;font-weight:600}",
            "svg.history{background:#fafafa;cursor:grab;touch-action:none}svg.history.dragging{cursor:grabbing}",
            ".w-accepted{fill:#2e7d32}.w-rejected{fill:#b0bec5}.w-error{fill:#ef6c00}",
            ".w-expired{fill:#8e24aa}.w-stale{fill:#c62828}.stale-mark{fill:#c62828}.freeze{fill:#e3f2fd;stroke:#90caf9}",
            ".cut{fill:url(#cut-hatch);stroke:#ffb74d}",
            ".history-legend span{display:inline-block;margin-right:14px}.history-legend i{display:inline-block;width:14px;height:8px;",
            "margin-right:4px;vertical-align:middle}#history-window{font:12px ui-monospace,monospace;color:#455a64}");

    private HistoryView() {
    }

    /** Returns the view's HTML: legend, controls, the lanes' names and the picture, with the script that zooms it. */
    static String html(Evidence.Chaos chaos, HistoryChecker.Findings findings, History history) {
        Map<String, HistoryChecker.Point> flagged = new HashMap<>();
        findings.modes().values().forEach(m -> m.accepts().forEach(p -> flagged.put(p.line() + "", p)));
        List<String> writers = history.writerNames();
        List<Mode> modes = new ArrayList<>(history.modes());
        long start = chaos.startedAtMicros();
        long end = Math.max(chaos.endedAtMicros(), history.writes().stream().mapToLong(History.Write::receivedAtMicros).max().orElse(start + 1));
        double span = Math.max(1, end - start);
        int laneHeight = modes.size() * ROW + GAP;
        int height = writers.size() * laneHeight + 4;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg class=\"history\" id=\"history\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" preserveAspectRatio=\"none\" data-span-micros=\"%d\" role=\"img\" aria-label=\"Every write of the chaos run,"
                + " a lane per writer\">%n", WIDTH, height, WIDTH, height, (long) span));
        // Stripes for a writer cut off from etcd, so that a cut and a freeze, both stretches of a lane, never look alike.
        svg.append("<defs><pattern id=\"cut-hatch\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" patternTransform=\"rotate(45)\">")
                .append("<rect width=\"6\" height=\"6\" fill=\"#fff8e1\"/><rect width=\"2\" height=\"6\" fill=\"#ffb74d\"/></pattern></defs>\n");
        for (int w = 0; w < writers.size(); w++) {
            svg.append(String.format(Locale.ROOT, "<g class=\"writer-lane\" data-writer=\"%s\">", Reports.esc(writers.get(w))));
            svg.append(String.format(Locale.ROOT, "<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", w * laneHeight, WIDTH,
                    laneHeight - GAP / 2, w % 2 == 0 ? "#ffffff" : "#f5f5f5"));
            faults(svg, history, writers.get(w), w * laneHeight, laneHeight - GAP / 2, start, span);
            svg.append("</g>\n");
        }
        for (History.Write write : history.writes()) {
            int w = writers.indexOf(write.writer());
            int m = modes.indexOf(write.mode());
            double x = (write.sentAtMicros() - start) / span * WIDTH;
            double width = Math.max(0.6, (write.receivedAtMicros() - write.sentAtMicros()) / span * WIDTH);
            int y = w * laneHeight + 2 + m * ROW;
            HistoryChecker.Point point = flagged.get(write.line() + "");
            boolean stale = point != null && point.stale();
            boolean expired = point != null && point.expiredHolder();
            String css = stale ? "w-stale" : expired ? "w-expired" : "w-" + write.verdict().text();
            svg.append(String.format(Locale.ROOT, "<rect class=\"write %s\" data-line=\"%d\" data-mode=\"%s\" data-verdict=\"%s\"%s%s x=\"%.2f\" y=\"%d\""
                            + " width=\"%.2f\" height=\"%d\"><title>line %d: %s, token %d, %s → %s, %.1f ms%s%s</title></rect>",
                    css, write.line(), Reports.esc(write.mode().text()), write.verdict().text(), stale ? " data-stale=\"true\"" : "",
                    expired ? " data-expired-holder=\"true\"" : "", x, y, width, ROW - 2, write.line(), Reports.esc(write.writer()), write.token(),
                    Reports.esc(write.mode().text()), write.verdict().text(), (write.receivedAtMicros() - write.sentAtMicros()) / 1000.0,
                    stale ? ", STALE: a higher token had been accepted before it was sent" : "",
                    expired ? ", sent after a newer token was granted (expired holder)" : ""));
            if (stale) {
                svg.append(String.format(Locale.ROOT, "<rect class=\"stale-mark\" data-line=\"%d\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\"/>",
                        write.line(), x, w * laneHeight, Math.max(2, width), laneHeight - GAP / 2));
            }
            svg.append('\n');
        }
        svg.append("</svg>\n");
        StringBuilder html = new StringBuilder("<h2>The history, write by write</h2>\n");
        html.append("<p class=\"history-legend\"><span><i class=\"w-accepted\" style=\"background:#2e7d32\"></i>accepted</span>")
                .append("<span><i style=\"background:#b0bec5\"></i>rejected</span><span><i style=\"background:#ef6c00\"></i>no verdict</span>")
                .append("<span><i style=\"background:#8e24aa\"></i>accepted from an expired holder</span>")
                .append("<span><i style=\"background:#c62828\"></i>stale write accepted</span>")
                .append("<span><i style=\"background:#e3f2fd;border:1px solid #90caf9\"></i>writer frozen by the nemesis</span>")
                .append("<span><i class=\"cut-key\" style=\"background:repeating-linear-gradient(45deg,#ffb74d 0 2px,#fff8e1 2px 6px);")
                .append("border:1px solid #ffb74d\"></i>writer cut off from etcd by the nemesis (its path to the sink open)</span>")
                .append("Each lane holds one row per mode, top to bottom: ").append(Reports.esc(String.join(", ", modes.stream().map(Mode::text).toList())))
                .append(". Seed ").append(chaos.seed()).append(".</p>\n");
        html.append("<p class=\"history-controls\"><button type=\"button\" id=\"zoom-in\">zoom in</button> <button type=\"button\" id=\"zoom-out\">")
                .append("zoom out</button> <button type=\"button\" id=\"zoom-reset\">whole run</button> <span id=\"history-window\"></span>")
                .append(" (mouse wheel zooms, dragging pans, + − 0 and ← → on the picture)</p>\n");
        html.append("<div class=\"history-view\"><div class=\"history-lanes\">");
        for (String writer : writers) {
            html.append(String.format(Locale.ROOT, "<div style=\"height:%dpx;line-height:%dpx\">%s</div>", laneHeight, laneHeight - GAP / 2,
                    Reports.esc(writer)));
        }
        html.append("</div>\n").append(svg).append("</div>\n<script>\n").append(SCRIPT).append("</script>\n");
        return html.toString();
    }

    /** Draws each of {@code writer}'s faults as a stretch of its lane, a freeze or a cut; one still on at the end runs to the end. */
    private static void faults(StringBuilder svg, History history, String writer, int y, int height, long start, double span) {
        HistoryLine.Fault begun = null;
        for (HistoryLine.Fault fault : history.faults()) {
            if (!fault.writer().equals(writer)) {
                continue;
            }
            if (fault.action().begins()) {
                begun = fault;
            } else if (begun != null && begun.action().end() == fault.action()) {
                fault(svg, begun, fault.atMicros(), y, height, start, span);
                begun = null;
            }
        }
        if (begun != null) {
            fault(svg, begun, start + (long) span, y, height, start, span);
        }
    }

    private static void fault(StringBuilder svg, HistoryLine.Fault begun, long to, int y, int height, long start, double span) {
        boolean cut = begun.action() == HistoryLine.Fault.Action.CUT;
        long from = begun.atMicros();
        svg.append(String.format(Locale.ROOT, "<rect class=\"%s\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\"><title>%s for %.0f ms</title></rect>",
                cut ? "cut" : "freeze", (from - start) / span * WIDTH, y, Math.max(1, (to - from) / span * WIDTH), height,
                cut ? "cut off from etcd" : "frozen", (to - from) / 1000.0));
    }

    private static final String SCRIPT = String.join("\n",
            "(function () {",
            "  var svg = document.getElementById('history'); if (!svg) { return; }",
            "  var W = " + WIDTH + ", H = svg.viewBox.baseVal.height, span = Number(svg.dataset.spanMicros);",
            "  var view = {x: 0, w: W}; svg.setAttribute('tabindex', '0');",
            "  function show() {",
            "    view.w = Math.min(W, Math.max(W / 2000, view.w)); view.x = Math.min(W - view.w, Math.max(0, view.x));",
            "    svg.setAttribute('viewBox', view.x + ' 0 ' + view.w + ' ' + H);",
            "    var from = view.x / W * span / 1e6, to = (view.x + view.w) / W * span / 1e6;",
            "    document.getElementById('history-window').textContent = 'showing ' + from.toFixed(3) + ' s to ' + to.toFixed(3) + ' s';",
            "  }",
            "  function zoom(factor, at) { var c = view.x + view.w * (at === undefined ? 0.5 : at); view.w = view.w / factor;",
            "    view.x = c - view.w * (at === undefined ? 0.5 : at); show(); }",
            "  document.getElementById('zoom-in').addEventListener('click', function () { zoom(2); });",
            "  document.getElementById('zoom-out').addEventListener('click', function () { zoom(0.5); });",
            "  document.getElementById('zoom-reset').addEventListener('click', function () { view = {x: 0, w: W}; show(); });",
            "  svg.addEventListener('wheel', function (e) { e.preventDefault(); var r = svg.getBoundingClientRect();",
            "    zoom(e.deltaY < 0 ? 1.5 : 1 / 1.5, (e.clientX - r.left) / r.width); }, {passive: false});",
            "  var drag = null;",
            "  svg.addEventListener('pointerdown', function (e) { drag = {x: e.clientX, vx: view.x}; svg.classList.add('dragging'); });",
            "  window.addEventListener('pointerup', function () { drag = null; svg.classList.remove('dragging'); });",
            "  svg.addEventListener('pointermove', function (e) { if (!drag) { return; } var r = svg.getBoundingClientRect();",
            "    view.x = drag.vx - (e.clientX - drag.x) / r.width * view.w; show(); });",
            "  svg.addEventListener('keydown', function (e) {",
            "    if (e.key === '+' || e.key === '=') { zoom(2); } else if (e.key === '-') { zoom(0.5); } else if (e.key === '0') { view = {x: 0, w: W}; show(); }",
            "    else if (e.key === 'ArrowLeft') { view.x -= view.w / 4; show(); } else if (e.key === 'ArrowRight') { view.x += view.w / 4; show(); }",
            "    else { return; } e.preventDefault(); });",
            "  show();",
            "})();",
            "");
}
