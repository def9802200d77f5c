package fencing.grader.classpage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The similarity findings as a part of a page: the class page's section, and the whole of {@code similarity.html}. */
final class SimilaritySection {

    /** How many pairs the section lists; {@code similarity.csv} lists them all. */
    static final int ROWS_AT_MOST = 100;

    private SimilaritySection() {
    }

    /**
     * Returns the section.
     *
     * @param students links each student's name to their row on the same page, when there is one
     */
    static String html(SimilarityReport report, boolean students) {
        StringBuilder out = new StringBuilder("<section id=\"similarity\">\n<h2>Similar submissions</h2>\n");
        out.append("<p>JPlag compared the student-owned files of <b data-figure=\"compared\">").append(report.compared().size())
                .append("</b> submission(s), <span data-figure=\"pairs-compared\">").append(report.pairCount())
                .append("</span> pair(s), leaving out the handout's stubs. Listed: every pair whose average similarity is at least <b data-figure=\"threshold\">")
                .append(Html.percent(report.threshold())).append("</b>. <strong>Similarity never changes a score</strong>: a listed pair is for a")
                .append(" person to look into, side by side. JPlag took ").append(String.format(Locale.ROOT, "%.1f", report.seconds()))
                .append(" s.</p>\n");
        if (report.pairCount() > 0) {
            List<String> edges = new ArrayList<>();
            for (int i = 0; i <= 10; i++) {
                edges.add(Integer.toString(i * 10));
            }
            out.append("<figure>").append(Histogram.svg("pairs by average similarity in percent", report.distribution(), edges,
                    Similarity.buckets(report.pairs()))).append("<figcaption>Pairs by JPlag's average similarity, in percent;")
                    .append(" the listed pairs are drawn in red.</figcaption></figure>\n");
        }
        if (report.pairs().isEmpty()) {
            out.append("<p class=\"none\" data-figure=\"listed\">No pair reaches the threshold.");
            if (report.highestBelow() != null) {
                SimilarityReport.Pair top = report.highestBelow();
                out.append(" The most similar pair: ").append(Html.escape(top.first())).append(" and ").append(Html.escape(top.second()))
                        .append(", ").append(Html.percent(top.average())).append(" average, ").append(Html.percent(top.maximum())).append(" maximum.");
            }
            out.append("</p>\n");
        } else {
            out.append("<table class=\"sortable\" id=\"similar-pairs\"><thead><tr><th>Student</th><th>Student</th><th class=\"num\">Average</th>")
                    .append("<th class=\"num\">Maximum</th><th class=\"num\">Regions</th><th>Side by side</th></tr></thead><tbody>\n");
            List<SimilarityReport.Pair> shown = report.pairs().subList(0, Math.min(ROWS_AT_MOST, report.pairs().size()));
            for (int i = 0; i < shown.size(); i++) {
                SimilarityReport.Pair pair = shown.get(i);
                out.append("<tr><td>").append(name(pair.first(), students)).append("</td><td>").append(name(pair.second(), students))
                        .append("</td>").append(number(pair.average(), Html.percent(pair.average())))
                        .append(number(pair.maximum(), Html.percent(pair.maximum()))).append(number(pair.regions().size(),
                                Integer.toString(pair.regions().size()))).append("<td>")
                        .append(i < SimilarityFiles.VIEWS_AT_MOST ? "<a href=\"" + Html.href(SimilarityFiles.VIEWS, pair.view())
                                + "\">matched regions</a>" : "").append("</td></tr>\n");
            }
            out.append("</tbody></table>\n");
            if (report.pairs().size() > SimilarityFiles.VIEWS_AT_MOST) {
                out.append("<p>").append(report.pairs().size()).append(" pairs reach the threshold: the ").append(shown.size())
                        .append(" most similar are listed here, the ").append(SimilarityFiles.VIEWS_AT_MOST)
                        .append(" most similar have a side-by-side page, and similarity.csv lists them all. So many pairs usually")
                        .append(" mean shared code the stubs do not hold, or a threshold too low for this class.</p>\n");
            }
            if (report.highestBelow() != null) {
                out.append("<p>The most similar pair under the threshold: ").append(Html.escape(report.highestBelow().first())).append(" and ")
                        .append(Html.escape(report.highestBelow().second())).append(", ").append(Html.percent(report.highestBelow().average()))
                        .append(" average.</p>\n");
            }
        }
        answers(report, students, out);
        if (!report.skipped().isEmpty()) {
            out.append("<p>Not compared:</p>\n<ul class=\"skipped\">\n");
            for (Map.Entry<String, String> skipped : report.skipped().entrySet()) {
                out.append("<li>").append(Html.escape(skipped.getKey())).append(": ").append(Html.escape(skipped.getValue())).append("</li>\n");
            }
            out.append("</ul>\n");
        }
        return out.append("</section>\n").toString();
    }

    /** The pairs whose {@code ANSWERS.md} prose reaches the threshold, beside the code's pairs. */
    private static void answers(SimilarityReport report, boolean students, StringBuilder out) {
        out.append("<h3 id=\"similar-answers-heading\">Similar explanations in ANSWERS.md</h3>\n<p>JPlag's text language compared the")
                .append(" ANSWERS.md of <b data-figure=\"answers-compared\">").append(report.answersCompared())
                .append("</b> of these submission(s), word by word, leaving out the handout's template. Listed: every pair whose average")
                .append(" similarity is at least the same threshold; see ").append(SimilarityFiles.ANSWERS_CSV).append(".</p>\n");
        if (report.answers().isEmpty()) {
            out.append("<p class=\"none\" data-figure=\"answers-listed\">No pair's explanations reach the threshold.</p>\n");
            return;
        }
        out.append("<table class=\"sortable\" id=\"similar-answers\"><thead><tr><th>Student</th><th>Student</th><th class=\"num\">Average</th>")
                .append("<th class=\"num\">Maximum</th><th>Code pair listed</th></tr></thead><tbody>\n");
        for (SimilarityReport.Pair pair : report.answers().subList(0, Math.min(ROWS_AT_MOST, report.answers().size()))) {
            boolean code = report.pairs().stream().anyMatch(listed -> listed.first().equals(pair.first()) && listed.second().equals(pair.second()));
            out.append("<tr><td>").append(name(pair.first(), students)).append("</td><td>").append(name(pair.second(), students))
                    .append("</td>").append(number(pair.average(), Html.percent(pair.average())))
                    .append(number(pair.maximum(), Html.percent(pair.maximum()))).append("<td>").append(code ? "yes" : "no").append("</td></tr>\n");
        }
        out.append("</tbody></table>\n");
    }

    /** Returns {@code similarity.html}: the section alone, for {@code ./kit similarity}. */
    static String page(SimilarityReport report) {
        return Html.head("Similar submissions", Assets.text("page.css")) + "<main>\n" + html(report, false)
                + "</main>\n<script>\n" + Assets.text("page.js") + "</script>\n</body>\n</html>\n";
    }

    private static String name(String student, boolean link) {
        return link ? "<a href=\"#" + Html.id("student", student) + "\">" + Html.escape(student) + "</a>" : Html.escape(student);
    }

    static String number(double value, String shown) {
        return "<td class=\"num\" data-sort=\"" + String.format(Locale.ROOT, "%s", value) + "\">" + shown + "</td>";
    }
}
