package fencing.lab.report;

import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Draws a repeat's timeline as SVG, from the events' kinds and fields. */
final class Timeline {

    private static final Map<Evidence.Lane, String> LANE_COLORS = Map.of(
            Evidence.Lane.A, "#1565c0", Evidence.Lane.ETCD, "#6a1b9a", Evidence.Lane.B, "#ef6c00", Evidence.Lane.C, "#ad1457",
            Evidence.Lane.SINK, "#37474f");
    private static final int WIDTH = 1120;
    private static final int LEFT = 70;
    private static final int RIGHT = 24;
    private static final int ROW = 14;
    private static final double CHAR_WIDTH = 6.4;
    private static final double LABEL_GAP = 12;

    private Timeline() {
    }

    /** Draws the repeat's timeline: one lane each for A, etcd, B and the sink, time running left to right. */
    static String svg(Evidence.Repeat repeat) {
        return svg(repeat, null, null);
    }

    /**
     * Draws the last {@link #INSET_MILLIS} of the repeat again, zoomed, where at least {@link #CROWDED} events crowd into it
     * (the late write, the verdicts and the final reads of the default case); an empty string where they do not.
     */
    static String crowdedEnd(Evidence.Repeat repeat) {
        Evidence.Trace trace = repeat.trace();
        double last = trace.events().stream().mapToDouble(Evidence.Event::tMillis).max().orElse(0);
        long crowd = trace.events().stream().filter(e -> e.tMillis() >= last - INSET_MILLIS).count();
        if (crowd < CROWDED) {
            return "";
        }
        return String.format(Locale.ROOT, "<p class=\"inset-caption\">The last half-second, zoomed: %d events between +%.1f ms and +%.1f ms.</p>%n",
                crowd, last - INSET_MILLIS, last) + svg(repeat, last - INSET_MILLIS - 5, last + 5);
    }

    /** How long a stretch at the end the zoomed inset shows, and how many events make it crowded. */
    static final double INSET_MILLIS = 500;
    static final int CROWDED = 5;

    private static String svg(Evidence.Repeat repeat, Double windowFrom, Double windowTo) {
        Evidence.Lock lock = repeat.lock();
        Evidence.Trace trace = repeat.trace();
        boolean inset = windowFrom != null;
        List<Evidence.Event> events = inset ? trace.events().stream().filter(e -> e.tMillis() >= windowFrom && e.tMillis() <= windowTo).toList()
                : trace.events();
        double tMin = 0;
        double tMax = repeat.figures().repeatMillis();
        for (Evidence.Event event : events) {
            tMin = Math.min(tMin, event.tMillis());
            tMax = Math.max(tMax, event.tMillis());
        }
        tMax += (tMax - tMin) * 0.02 + 1;
        if (inset) {
            tMin = windowFrom;
            tMax = windowTo;
        }
        double span = tMax - tMin;
        double from = tMin;
        double plot = WIDTH - LEFT - RIGHT;
        java.util.function.DoubleUnaryOperator x = t -> LEFT + Math.max(0, Math.min(1, (t - from) / span)) * plot;
        String svgClass = inset ? "timeline-inset" : "timeline";
        String patternId = "frozen-" + repeat.repeat() + (inset ? "-inset" : "");

        Map<Evidence.Lane, List<Placed>> placed = new LinkedHashMap<>();
        Map<Evidence.Lane, Integer> rows = new LinkedHashMap<>();
        List<Evidence.Lane> lanes = new ArrayList<>();
        for (Evidence.Lane lane : Evidence.Lane.values()) {
            // C's lane is drawn only in a case that has a C.
            if (lane != Evidence.Lane.C || events.stream().anyMatch(e -> e.lane() == Evidence.Lane.C)) {
                lanes.add(lane);
            }
        }
        for (Evidence.Lane lane : lanes) {
            List<Double> rowEnds = new ArrayList<>();
            List<Placed> lanePlaced = new ArrayList<>();
            for (Evidence.Event event : events) {
                if (event.lane() != lane) {
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
        Map<Evidence.Lane, Integer> laneY = new LinkedHashMap<>();
        int y = top;
        for (Evidence.Lane lane : lanes) {
            laneY.put(lane, y + 8);
            y += 22 + rows.get(lane) * ROW;
        }
        int axisY = y + 16;
        int height = axisY + 30;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg class=\"" + svgClass + "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                + " role=\"img\" aria-label=\"Timeline of repeat %d: one lane each for A, etcd, B, C where it writes, and the sink\">%n", WIDTH, height, WIDTH, height, repeat.repeat()));
        svg.append("<defs><pattern id=\"").append(patternId).append("\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\""
                + " patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#e3f2fd\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\""
                + " stroke=\"#90caf9\" stroke-width=\"3\"/></pattern></defs>\n");

        // Spans first, so that markers and labels draw over them.
        Double stop = timeOf(trace.events(), Evidence.Lane.A, EventKind.FROZEN);
        Double cont = timeOf(trace.events(), Evidence.Lane.A, EventKind.RESUMED);
        if (stop != null) {
            double x1 = x.applyAsDouble(stop);
            double x2 = x.applyAsDouble(cont != null ? cont : tMax);
            int ay = laneY.get(Evidence.Lane.A);
            svg.append(String.format(Locale.ROOT, "<rect class=\"frozen\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"url(#%s)\"/>%n",
                    x1, ay - 7, Math.max(1, x2 - x1), 14, patternId));
            svg.append(String.format(Locale.ROOT, "<text class=\"span-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">A frozen (SIGSTOP → SIGCONT)</text>%n",
                    (x1 + x2) / 2, ay - 10));
            double ttlAt = stop + lock.ttlSeconds() * 1000.0;
            double ttlLine = x.applyAsDouble(ttlAt);
            if (ttlAt >= tMin && ttlAt <= tMax) {
                svg.append(String.format(Locale.ROOT, "<line class=\"ttl\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>%n", ttlLine, top - 8, ttlLine, axisY));
                svg.append(String.format(Locale.ROOT, "<text class=\"span-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"start\">SIGSTOP + TTL</text>%n",
                        ttlLine + 3, axisY - 4));
            }
        }
        Double cutAt = timeOf(trace.events(), Evidence.Lane.A, EventKind.CUT_OFF);
        if (cutAt != null) {
            double x1 = x.applyAsDouble(cutAt);
            double x2 = x.applyAsDouble(tMax);
            int ay = laneY.get(Evidence.Lane.A);
            svg.append(String.format(Locale.ROOT, "<rect class=\"cut-off\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"url(#%s)\"/>%n",
                    x1, ay - 7, Math.max(1, x2 - x1), 14, patternId));
            svg.append(String.format(Locale.ROOT, "<text class=\"span-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">A cut off from etcd,"
                    + " its path to the sink open</text>%n", (x1 + x2) / 2, ay - 10));
        }
        double ranOutAt = lock.expiry() == null ? Double.NaN
                : (lock.expiry().lastKeepAliveMicros() - trace.startedAtMicros()) / 1000.0 + lock.ttlSeconds() * 1000.0;
        if (ranOutAt >= tMin && ranOutAt <= tMax) {
            double ranOut = x.applyAsDouble(ranOutAt);
            svg.append(String.format(Locale.ROOT, "<line class=\"ran-out\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>%n", ranOut, top - 8, ranOut, axisY));
            // A lease that is never renewed runs out a TTL after its grant; lastKeepAliveMicros then holds when A took the lock.
            String ranOutLabel = stop != null || cutAt != null ? "last keepalive + TTL" : "lock taken + TTL";
            svg.append(String.format(Locale.ROOT, "<text class=\"span-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                    ranOut - 3, axisY - 4, ranOutLabel));
        }
        int ey = laneY.get(Evidence.Lane.ETCD);
        Double aLeaseEnd = lock.expiry() == null ? null : (lock.expiry().observedAtMicros() - trace.startedAtMicros()) / 1000.0;
        leaseBar(svg, x, lock.a().tMillis(), aLeaseEnd == null ? tMax : aLeaseEnd, ey, "#bbdefb", "A's lease " + lock.a().leaseIdHex());
        Double timerEnds = Clocks.timerEndsAt(repeat);
        if (timerEnds != null) {
            // A's lease as A's own clock counts it, under A's lane, against etcd's bar of the same lease below it.
            String label = String.format(Locale.ROOT, "A's lease by A's own clock (%s× the machine's): valid until +%.0f ms",
                    lock.clocks().clockRate(), timerEnds);
            int ay = laneY.get(Evidence.Lane.A);
            leaseBar(svg, x, lock.a().tMillis(), Math.min(timerEnds, tMax), ay - 12, "#c5e1a5", label);
            svg.append(String.format(Locale.ROOT, "<text class=\"span-label\" x=\"%.1f\" y=\"%d\">%s%s</text>%n", x.applyAsDouble(lock.a().tMillis()),
                    ay - 18, Reports.esc(label), timerEnds > tMax ? " (past the chart's end)" : ""));
        }
        Double released = timeOf(trace.events(), Evidence.Lane.B, EventKind.RELEASED);
        leaseBar(svg, x, lock.b().tMillis(), released == null ? tMax : released, ey, "#ffe0b2", "B's lease " + lock.b().leaseIdHex());

        for (Evidence.Lane lane : lanes) {
            int ly = laneY.get(lane);
            svg.append("<g class=\"lane\" data-lane=\"").append(lane.label()).append("\">\n");
            svg.append(String.format(Locale.ROOT, "<text class=\"lane-name\" x=\"10\" y=\"%d\" fill=\"%s\">%s</text>%n", ly + 4, LANE_COLORS.get(lane), lane.label()));
            svg.append(String.format(Locale.ROOT, "<line class=\"lane-line\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>%n",
                    LEFT, ly, WIDTH - RIGHT, ly, LANE_COLORS.get(lane)));
            for (Placed p : placed.get(lane)) {
                String verdict = p.event.about().verdict() == null ? "" : p.event.about().verdict();
                String color = verdict.equals("accepted") ? "#2e7d32" : verdict.equals("rejected") ? "#c62828"
                        : verdict.equals("duplicate") ? "#6a1b9a" : LANE_COLORS.get(lane);
                int textY = ly + 16 + p.row * ROW;
                svg.append("<g class=\"event\" data-lane=\"").append(lane.label()).append("\"")
                        .append(verdict.isEmpty() ? "" : " data-verdict=\"" + verdict + "\"").append(">");
                svg.append("<title>").append(Reports.esc(String.format(Locale.ROOT, "+%.1f ms: %s. %s", p.event.tMillis(), p.event.label(), p.event.detail())))
                        .append("</title>");
                if (p.row > 0) {
                    svg.append(String.format(Locale.ROOT, "<line class=\"leader\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", p.at, ly + 4, p.at, textY - 9));
                }
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"%s\"/>", p.at, ly, color));
                svg.append(String.format(Locale.ROOT, "<text class=\"event-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"%s\" fill=\"%s\">%s</text></g>%n",
                        p.anchorEnd ? p.at + 3 : p.at - 3, textY, p.anchorEnd ? "end" : "start", color, Reports.esc(p.event.label())));
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
                x1, y - 4, Math.max(1, x2 - x1), fill, Reports.esc(label)));
    }

    private static Double timeOf(List<Evidence.Event> events, Evidence.Lane lane, EventKind kind) {
        for (Evidence.Event event : events) {
            if (event.lane() == lane && event.kind() == kind) {
                return event.tMillis();
            }
        }
        return null;
    }

    private static String trim(double seconds) {
        String text = String.format(Locale.ROOT, "%.1f", seconds);
        return text.endsWith(".0") ? text.substring(0, text.length() - 2) : text;
    }

    private record Placed(Evidence.Event event, double at, int row, boolean anchorEnd) {
    }
}
