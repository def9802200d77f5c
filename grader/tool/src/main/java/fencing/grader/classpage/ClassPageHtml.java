package fencing.grader.classpage;

import fencing.grader.files.GradeStatus;
import fencing.grader.files.GradebookRow;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Renders {@code gradebook.html}: the class at a glance, from the batch's records and the similarity report. */
final class ClassPageHtml {

    private ClassPageHtml() {
    }

    /**
     * Returns the page.
     *
     * @param links the files beside the page it links to (the gradebook, the similarity report, the regrade), by name
     */
    static String html(ClassRecords records, SimilarityReport similarity, List<String> links) {
        List<ClassRecords.Student> graded = records.graded();
        StringBuilder page = new StringBuilder(Html.head("Gradebook", Assets.text("page.css")));
        page.append("<header>\n<h1>Gradebook</h1>\n").append(counts(records)).append("<nav class=\"toc\">")
                .append("<a href=\"#scores\">Scores</a><a href=\"#properties\">Properties</a><a href=\"#items\">Hidden tests</a>")
                .append("<a href=\"#similarity\">Similar submissions</a><a href=\"#explanations\">Explanations to read</a>")
                .append("<a href=\"#students\">Students</a> · ")
                .append(links.stream().map(link -> "<a href=\"" + Html.href(link) + "\">" + Html.escape(link) + "</a>").collect(Collectors.joining()))
                .append("</nav>\n</header>\n<main>\n");
        page.append(scores(graded));
        page.append(properties(ItemAnalysis.properties(graded)));
        page.append(items(ItemAnalysis.items(ItemAnalysis.attempted(graded)), ItemAnalysis.attempted(graded).size(), graded.size()));
        page.append(SimilaritySection.html(similarity, true));
        page.append(explanations(Explanations.of(graded)));
        page.append(students(records));
        page.append("<p class=\"muted\">Written from gradebook.csv, batch.json and each student's results.json; the similarity from the")
                .append(" student files each graded student's report folder keeps. Nothing on this page changes a score.</p>\n");
        return page.append("</main>\n<script>\n").append(Assets.text("page.js")).append("</script>\n</body>\n</html>\n").toString();
    }

    private static String counts(ClassRecords records) {
        List<ClassRecords.Student> students = records.students();
        long notGraded = students.stream().filter(student -> student.row().status() == GradeStatus.NOT_GRADED).count();
        long couldNotRun = students.stream().filter(student -> student.row().score() == null).count();
        StringBuilder out = new StringBuilder("<ul class=\"figures\">");
        out.append(figure("students", "students in the class", records.batch().students().size()));
        out.append(figure("graded", "graded", records.graded().size()));
        out.append(figure("not-graded", "not graded (refused, score 0)", notGraded));
        out.append(figure("could-not-run", "grading could not run (no score)", couldNotRun));
        List<String> missing = records.batch().missing();
        if (!missing.isEmpty()) {
            out.append(figure("missing", "missing from every shard", missing.size()));
        }
        out.append("</ul>\n");
        if (!missing.isEmpty()) {
            out.append("<p>Missing from every shard, not graded yet: ").append(Html.escape(String.join(", ", missing))).append(".</p>\n");
        }
        return out.toString();
    }

    private static String figure(String name, String label, Object value) {
        return "<li><b data-figure=\"" + name + "\">" + Html.escape(String.valueOf(value)) + "</b>" + Html.escape(label) + "</li>";
    }

    private static String scores(List<ClassRecords.Student> graded) {
        ScoreDistribution total = distribution("total", graded);
        StringBuilder out = new StringBuilder("<section id=\"scores\">\n<h2>Scores</h2>\n<p>Over the ").append(graded.size())
                .append(" graded submission(s), those that did not compile included; the refused ones and those the grader could not run")
                .append(" are counted above, not here. Total: mean <b data-figure=\"total-mean\">").append(number(total.mean()))
                .append("</b>, median <b data-figure=\"total-median\">").append(number(total.median())).append("</b> of ").append(total.max())
                .append(".</p>\n<div class=\"charts\">\n");
        if (graded.isEmpty()) {
            return out.append("<p class=\"note\">No submission of this batch was graded.</p></div>\n</section>\n").toString();
        }
        for (String part : List.of("core", "extension")) {
            ScoreDistribution scores = distribution(part, graded);
            String title = part.equals("core") ? "Core (Parts 1–3)" : "Extension tasks";
            out.append("<div class=\"chart\" id=\"").append(part).append("-scores\"><h3>").append(title).append("</h3>\n");
            if (scores.max() == 0) {
                out.append("<p class=\"note\">Not graded in this batch (--no-extensions).</p></div>\n");
                continue;
            }
            out.append("<p>Mean <b data-figure=\"").append(part).append("-mean\">").append(number(scores.mean())).append("</b>, median <b data-figure=\"")
                    .append(part).append("-median\">").append(number(scores.median())).append("</b> of ").append(scores.max()).append(" points.</p>\n");
            out.append("<figure>").append(Histogram.svg(part + " scores", scores.counts(), scores.edges(), List.of()))
                    .append("<figcaption>Submissions by ").append(part).append(" score: ten equal bins from 0 to ").append(scores.max())
                    .append(", each from its lower bound up to the next, the last one including ").append(scores.max()).append(".</figcaption></figure></div>\n");
        }
        return out.append("</div>\n</section>\n").toString();
    }

    /** The distribution of one part's scores: {@code core}, {@code extension} or {@code total}. */
    static ScoreDistribution distribution(String part, List<ClassRecords.Student> graded) {
        int max = graded.isEmpty() ? 0 : switch (part) {
            case "core" -> graded.get(0).row().coreMax();
            case "extension" -> graded.get(0).row().extensionMax();
            default -> graded.get(0).row().max();
        };
        return new ScoreDistribution(part, max, graded.stream().map(student -> switch (part) {
            case "core" -> student.row().core();
            case "extension" -> student.row().extension();
            default -> student.row().score();
        }).toList());
    }

    private static String properties(List<ItemAnalysis.Property> properties) {
        StringBuilder out = new StringBuilder("<section id=\"properties\">\n<h2>Properties: what the class did not get</h2>\n")
                .append("<p>One row per graded property (tag). Its points are those of the tests whose main (first) tag it is; a student")
                .append(" failed it when a test carrying the tag failed, as the gradebook's failed tags say. The rule is the one most")
                .append(" students' failing messages state.</p>\n<table class=\"sortable\" id=\"property-table\"><thead><tr><th>Property</th>")
                .append("<th class=\"num\">Points</th><th class=\"num\">Failed</th><th>Most common failing rule</th><th>Students who failed it</th>")
                .append("</tr></thead><tbody>\n");
        for (ItemAnalysis.Property property : properties) {
            out.append("<tr data-tag=\"").append(Html.escape(property.tag())).append("\"><td>").append(Html.escape(property.tag())).append("</td>")
                    .append(SimilaritySection.number(property.points(), Integer.toString(property.points())))
                    .append(SimilaritySection.number(property.share(), share(property.failed().size(), property.of()))).append("<td>");
            if (property.phrase() != null) {
                out.append("<span class=\"phrase\">").append(Html.escape(property.phrase())).append("</span> <span class=\"muted\">(")
                        .append(property.phraseBy()).append(" of ").append(property.failed().size()).append(")</span>");
            }
            out.append("</td><td class=\"students\">");
            property.failed().forEach(student -> out.append("<a href=\"#").append(Html.id("student", student)).append("\">")
                    .append(Html.escape(student)).append("</a> "));
            out.append("</td></tr>\n");
        }
        return out.append("</tbody></table>\n</section>\n").toString();
    }

    private static String items(List<ItemAnalysis.Item> items, int attempted, int graded) {
        StringBuilder out = new StringBuilder("<section id=\"items\">\n<h2>Hidden tests: item analysis</h2>\n")
                .append("<p>Over the <b data-figure=\"attempted\">").append(attempted).append("</b> of ").append(graded)
                .append(" graded submissions that passed at least one test: one that did not compile, or is still the stubs, fails every")
                .append(" test alike and says nothing about any one of them. ")
                .append("Difficulty is the share that passed; discrimination is the point-biserial correlation")
                .append(" of passing with the rest of the score (the score without this test's points). A test everyone passes tells")
                .append(" nothing about who learned more; one below ").append(number(ItemAnalysis.DISCRIMINATES))
                .append(" does not tell the stronger submissions from the weaker ones.</p>\n<table class=\"sortable\" id=\"item-table\"><thead><tr>")
                .append("<th>Test</th><th>Tags</th><th class=\"num\">Points</th><th class=\"num\">Passed</th><th class=\"num\">Discrimination</th>")
                .append("<th>Marks</th></tr></thead><tbody>\n");
        for (ItemAnalysis.Item item : items) {
            out.append("<tr><td>").append(Html.escape(item.name())).append("</td><td>").append(Html.escape(String.join(", ", item.tags())))
                    .append("</td>").append(SimilaritySection.number(item.points(), Integer.toString(item.points())))
                    .append(SimilaritySection.number(item.difficulty(), share(item.passed(), item.of())));
            out.append(item.discrimination() == null ? "<td class=\"num\" data-sort=\"\">–</td>"
                    : SimilaritySection.number(item.discrimination(), String.format(Locale.ROOT, "%.2f", item.discrimination())));
            out.append("<td>").append(item.everyonePassed() ? "<span class=\"flag easy\">everyone passed</span>" : "")
                    .append(item.nobodyPassed() ? "<span class=\"flag\">nobody passed</span>" : "")
                    .append(item.doesNotDiscriminate() ? "<span class=\"flag\">does not discriminate</span>" : "").append("</td></tr>\n");
        }
        return out.append("</tbody></table>\n</section>\n").toString();
    }

    private static String explanations(List<Explanations.Question> questions) {
        StringBuilder out = new StringBuilder("<section id=\"explanations\">\n<h2>Explanations to read</h2>\n");
        if (questions.isEmpty()) {
            return out.append("<p>No explanations were passed on in this batch.</p>\n</section>\n").toString();
        }
        out.append("<p>The open explanations of ANSWERS.md, by question, with the rubric to read them by. They carry no points until a person")
                .append(" grades them.</p>\n");
        for (Explanations.Question question : questions) {
            out.append("<h3 id=\"question-").append(question.number()).append("\">Question ").append(question.number()).append(": ")
                    .append(Html.escape(question.title())).append(" <span class=\"muted\">(").append(question.answers().size())
                    .append(" to read)</span></h3>\n<p class=\"rubric\"><b>Rubric:</b> ").append(Html.escape(question.rubric())).append("</p>\n");
            if (!question.answers().isEmpty()) {
                out.append("<table class=\"answers\"><thead><tr><th>Student</th><th>Explanation</th></tr></thead><tbody>\n");
                for (Explanations.Answer answer : question.answers()) {
                    out.append("<tr><td><a href=\"#").append(Html.id("student", answer.student())).append("\">").append(Html.escape(answer.student()))
                            .append("</a></td><td><blockquote>").append(Html.escape(answer.text())).append("</blockquote>");
                    if (!answer.figureProblems().isEmpty()) {
                        out.append("<p class=\"status-other\">Figures that do not match the evidence: ")
                                .append(Html.escape(String.join("; ", answer.figureProblems()))).append("</p>");
                    }
                    out.append("</td></tr>\n");
                }
                out.append("</tbody></table>\n");
            }
            if (!question.unanswered().isEmpty()) {
                out.append("<p class=\"muted\">Not answered: ").append(Html.escape(String.join(", ", question.unanswered()))).append(".</p>\n");
            }
        }
        return out.append("</section>\n").toString();
    }

    private static String students(ClassRecords records) {
        StringBuilder out = new StringBuilder("<section id=\"students\">\n<h2>Students</h2>\n<table class=\"sortable\" id=\"student-table\"><thead><tr>")
                .append("<th>Student</th><th class=\"num\">Score</th><th class=\"num\">Core</th><th class=\"num\">Extension</th><th>Status</th>")
                .append("<th>Failed tags</th><th class=\"num\">Answers to read</th><th>Report</th></tr></thead><tbody>\n");
        List<String> reused = records.batch().reused() == null ? List.of() : records.batch().reused();
        for (ClassRecords.Student student : records.students()) {
            GradebookRow row = student.row();
            out.append("<tr id=\"").append(Html.id("student", student.name())).append("\"><td>").append(Html.escape(student.name()))
                    .append(reused.contains(student.name()) ? " <span class=\"muted\">(reused)</span>" : "").append("</td>")
                    .append(score(row.score(), row.max())).append(score(row.core(), row.coreMax()))
                    .append(row.extensionMax() == 0 ? "<td class=\"num\" data-sort=\"\">not graded</td>" : score(row.extension(), row.extensionMax()))
                    .append("<td").append(student.graded() ? "" : " class=\"status-other\"").append(">").append(Html.escape(row.statusLine()))
                    .append("</td><td>").append(Html.escape(String.join(", ", row.failedTags()))).append("</td>")
                    .append(SimilaritySection.number(row.answersToRead(), Integer.toString(row.answersToRead())))
                    .append("<td><a href=\"").append(Html.href(student.folder(), "summary.md")).append("\">summary.md</a></td></tr>\n");
        }
        return out.append("</tbody></table>\n</section>\n").toString();
    }

    private static String score(Integer score, int max) {
        return score == null ? "<td class=\"num\" data-sort=\"\">–</td>" : SimilaritySection.number(score, score + " / " + max);
    }

    private static String share(int count, int of) {
        return of == 0 ? "–" : String.format(Locale.ROOT, "%d of %d (%.0f %%)", count, of, 100.0 * count / of);
    }

    /** A figure as the page shows it: two decimals, or a dash when there is none. */
    static String number(double value) {
        return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%.2f", value);
    }
}
