package fencing.lab.report;

import fencing.lab.common.Json;
import fencing.support.evidence.Evidence;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The replay's HTML: a scrubber over a repeat's events, the state after each, and a mode to highlight; one script serves every repeat. */
final class ReplayHtml {

    private ReplayHtml() {
    }

    /** Appends the replay of {@code repeat}, its steps embedded as JSON for the page's script. */
    static void append(StringBuilder html, Evidence.Repeat repeat) {
        List<Replay.Step> steps = Replay.steps(repeat);
        if (steps.isEmpty()) {
            return;
        }
        int n = repeat.repeat();
        List<String> names = new ArrayList<>(repeat.modes().keySet());
        names.addAll(repeat.ledgers().keySet());
        html.append("<section class=\"replay\" id=\"replay-").append(n).append("\" tabindex=\"0\" data-steps=\"").append(steps.size())
                .append("\" aria-label=\"Replay of repeat ").append(n).append(": step through its events with the arrow keys\">\n");
        html.append("<h3>Replay: the run, event by event</h3>\n<p class=\"replay-controls\">")
                .append("<button type=\"button\" class=\"first\" title=\"first event (Home)\">« first</button> ")
                .append("<button type=\"button\" class=\"prev\" title=\"previous event (←)\">◀ previous</button> ")
                .append("<input type=\"range\" class=\"scrubber\" min=\"0\" max=\"").append(steps.size() - 1)
                .append("\" value=\"0\" step=\"1\" aria-label=\"event\"> ")
                .append("<button type=\"button\" class=\"next\" title=\"next event (→)\">next ▶</button> ")
                .append("<button type=\"button\" class=\"last\" title=\"last event (End)\">last »</button> ")
                .append("<span class=\"step-count\"></span></p>\n");
        html.append("<p class=\"mode-picker\">Highlight a mode: <button type=\"button\" data-pick=\"\" class=\"picked\">none</button>");
        for (String mode : repeat.modes().keySet()) {
            html.append(" <button type=\"button\" data-pick=\"").append(Reports.esc(mode)).append("\">").append(Reports.esc(mode)).append("</button>");
        }
        html.append(" <span class=\"mode-story\"></span></p>\n");
        html.append("<p class=\"step-event\"><span class=\"step-time\"></span> <b class=\"step-lane\"></b> <span class=\"step-label\"></span>")
                .append("<br><span class=\"step-detail note\"></span></p>\n");
        html.append("<table class=\"replay-sinks\"><thead><tr><th>mode or ledger</th><th>value after this event</th><th>mark</th>")
                .append("<th>its last verdict</th><th>the final read</th></tr></thead><tbody>\n");
        for (String name : names) {
            Evidence.ModeOutcome mode = repeat.modes().get(name);
            Evidence.LedgerOutcome ledger = repeat.ledgers().get(name);
            String finalValue = mode != null ? mode.finalValue() : "total " + ledger.finalTotal();
            long finalMark = mode != null ? mode.finalHighWaterMark() : ledger.finalHighWaterMark();
            html.append("<tr data-mode=\"").append(Reports.esc(name)).append("\" data-final-value=\"").append(Reports.esc(finalValue))
                    .append("\" data-final-mark=\"").append(finalMark).append("\"><td>").append(Reports.esc(name))
                    .append("</td><td class=\"value\"></td><td class=\"mark\"></td><td class=\"last\"></td><td class=\"final\">")
                    .append(Reports.esc(finalValue)).append(", mark ").append(finalMark).append("</td></tr>\n");
        }
        html.append("</tbody></table>\n<p class=\"replay-lock\">etcd says: <span class=\"etcd-says\"></span><br>")
                .append("<span class=\"believes\"></span></p>\n")
                // A list that scrolls must take the focus, or a keyboard cannot scroll it.
                .append("<ol class=\"replay-events\" start=\"0\" tabindex=\"0\" aria-label=\"The run's events\">\n");
        for (Replay.Step step : steps) {
            html.append(String.format(Locale.ROOT, "<li data-step=\"%d\"%s%s><span class=\"t\">+%.1f ms</span> <b>%s</b> %s</li>%n", step.index(),
                    step.mode() == null ? "" : " data-mode=\"" + Reports.esc(step.mode()) + "\"",
                    step.verdict() == null ? "" : " data-verdict=\"" + Reports.esc(step.verdict()) + "\"", step.tMillis(),
                    Reports.esc(step.lane()), Reports.esc(step.label())));
        }
        html.append("</ol>\n<script type=\"application/json\" class=\"replay-data\">")
                .append(Json.compact(Map.of("steps", steps)).replace("</", "<\\/")).append("</script>\n</section>\n");
    }

    static final String CSS = String.join("\n",
            ".replay { border: 1px solid #cfd8dc; border-radius: 6px; padding: 8px 14px; margin: 12px 0; background: #fcfcfd; }",
            ".replay:focus { outline: 2px solid #64b5f6; } .replay h3 { margin: 4px 0; font-size: 15px; }",
            ".replay .scrubber { width: 420px; vertical-align: middle; } .replay button.picked { background: #1565c0; color: #fff; }",
            ".replay .step-event { min-height: 2.8em; } .replay .step-label { font-weight: 600; }",
            ".replay tr.highlight td, .replay li.highlight { background: #fff8e1; }",
            ".replay .replay-events { max-height: 180px; overflow: auto; font-size: 12px; border-top: 1px solid #eceff1; padding-top: 4px; }",
            ".replay .replay-events li { cursor: pointer; } .replay .replay-events li.current { background: #e3f2fd; font-weight: 600; }",
            ".replay li[data-verdict=accepted] b, .replay td.last.accepted { color: #2e7d32; }",
            ".replay li[data-verdict=rejected] b, .replay td.last.rejected { color: #c62828; }",
            "");

    static final String SCRIPT = String.join("\n",
            "(function () {",
            "  document.querySelectorAll('section.replay').forEach(function (box) {",
            "    var steps = JSON.parse(box.querySelector('script.replay-data').textContent).steps;",
            "    var scrub = box.querySelector('.scrubber'), items = box.querySelectorAll('.replay-events li'), picked = '';",
            "    function text(cls, value) { box.querySelector(cls).textContent = value; }",
            "    function show(i) {",
            "      i = Math.max(0, Math.min(steps.length - 1, i)); var s = steps[i];",
            "      scrub.value = i; box.dataset.step = i;",
            "      text('.step-count', 'event ' + (i + 1) + ' of ' + steps.length);",
            "      text('.step-time', '+' + s.tMillis.toFixed(1) + ' ms'); text('.step-lane', s.lane); text('.step-label', s.label);",
            "      text('.step-detail', s.detail || ''); text('.etcd-says', s.etcdSays); text('.believes', s.believes);",
            "      box.querySelectorAll('.replay-sinks tbody tr').forEach(function (row) {",
            "        var sink = s.sinks[row.dataset.mode] || {};",
            "        row.querySelector('.value').textContent = sink.value == null ? '(nothing written yet)' : sink.value;",
            "        row.querySelector('.mark').textContent = sink.mark == null ? '' : sink.mark;",
            "        var last = row.querySelector('.last'); last.textContent = sink.last || '';",
            "        last.className = 'last ' + (sink.last || '').split(' ')[0];",
            "      });",
            "      items.forEach(function (li) { li.classList.toggle('current', Number(li.dataset.step) === i); });",
            "    }",
            "    function pick(mode) {",
            "      picked = mode; var story = [];",
            "      box.querySelectorAll('.mode-picker button').forEach(function (b) { b.classList.toggle('picked', b.dataset.pick === mode); });",
            "      box.querySelectorAll('.replay-sinks tbody tr').forEach(function (row) { row.classList.toggle('highlight', mode !== '' && row.dataset.mode === mode); });",
            "      items.forEach(function (li) { li.classList.toggle('highlight', mode !== '' && li.dataset.mode === mode); });",
            "      steps.forEach(function (s) { if (mode !== '' && s.mode === mode && s.kind === 'VERDICT') {",
            "        story.push(s.verdict + ' ' + s.from + \"'s write (token \" + s.token + ')'); } });",
            "      text('.mode-story', mode === '' ? '' : mode + ': ' + (story.length ? story.join(', then ') : 'no verdict'));",
            "    }",
            "    box.querySelector('.first').addEventListener('click', function () { show(0); });",
            "    box.querySelector('.prev').addEventListener('click', function () { show(Number(scrub.value) - 1); });",
            "    box.querySelector('.next').addEventListener('click', function () { show(Number(scrub.value) + 1); });",
            "    box.querySelector('.last').addEventListener('click', function () { show(steps.length - 1); });",
            "    scrub.addEventListener('input', function () { show(Number(scrub.value)); });",
            "    items.forEach(function (li) { li.addEventListener('click', function () { show(Number(li.dataset.step)); }); });",
            "    box.querySelectorAll('.mode-picker button').forEach(function (b) { b.addEventListener('click', function () { pick(b.dataset.pick); }); });",
            "    box.addEventListener('keydown', function (e) {",
            "      if (e.target === scrub) { return; }",
            "      var i = Number(scrub.value);",
            "      if (e.key === 'ArrowRight') { show(i + 1); } else if (e.key === 'ArrowLeft') { show(i - 1); }",
            "      else if (e.key === 'Home') { show(0); } else if (e.key === 'End') { show(steps.length - 1); } else { return; }",
            "      e.preventDefault();",
            "    });",
            "    show(0);",
            "  });",
            "})();",
            "");
}
