package fencing.grader.classpage;

import java.util.List;
import java.util.Locale;

/** Draws a bar chart as inline SVG: one bar per bin, its count written above it and its range below. */
final class Histogram {

    private static final int WIDTH = 560;
    private static final int HEIGHT = 190;
    private static final int TOP = 18;
    private static final int BOTTOM = 36;
    private static final int LEFT = 16;

    private Histogram() {
    }

    /**
     * Returns the chart.
     *
     * @param label  what the chart shows, for a screen reader
     * @param counts how many fall in each bin
     * @param edges  the bins' bounds, one more than the bins, written under the axis where two bins meet
     * @param marked how many of each bin's count are drawn in the marking colour, at the bar's foot; empty for none
     */
    static String svg(String label, List<Integer> counts, List<String> edges, List<Integer> marked) {
        int most = Math.max(1, counts.stream().mapToInt(Integer::intValue).max().orElse(1));
        double slot = (WIDTH - 2.0 * LEFT) / counts.size();
        double plot = HEIGHT - TOP - BOTTOM;
        StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
                "<svg class=\"histogram\" role=\"img\" aria-label=\"%s\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\">",
                Html.escape(label), WIDTH, HEIGHT, WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>", LEFT, TOP + plot,
                WIDTH - LEFT, TOP + plot));
        for (int i = 0; i < counts.size(); i++) {
            int count = counts.get(i);
            double height = plot * count / most;
            double x = LEFT + i * slot + slot * 0.08;
            double width = slot * 0.84;
            int red = marked.isEmpty() ? 0 : marked.get(i);
            svg.append(String.format(Locale.ROOT, "<g class=\"bin%s\" data-bin=\"%s–%s\" data-count=\"%d\"%s>", red > 0 ? " marked" : "",
                    Html.escape(edges.get(i)), Html.escape(edges.get(i + 1)), count, marked.isEmpty() ? "" : " data-marked=\"" + red + "\""));
            double redHeight = plot * red / most;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", x, TOP + plot - height,
                    width, height - redHeight));
            if (red > 0) {
                svg.append(String.format(Locale.ROOT, "<rect class=\"mark\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", x,
                        TOP + plot - redHeight, width, redHeight));
            }
            svg.append(String.format(Locale.ROOT, "<text class=\"count\" x=\"%.1f\" y=\"%.1f\">%d</text></g>", x + width / 2,
                    TOP + plot - height - 4, count));
        }
        for (int i = 0; i < edges.size(); i++) {
            svg.append(String.format(Locale.ROOT, "<line class=\"tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                    + "<text class=\"range\" x=\"%.1f\" y=\"%.1f\">%s</text>", LEFT + i * slot, TOP + plot, LEFT + i * slot, TOP + plot + 4,
                    LEFT + i * slot, TOP + plot + 16, Html.escape(edges.get(i))));
        }
        return svg.append("</svg>").toString();
    }
}
