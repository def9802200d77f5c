package fencing.lab.report;

import fencing.support.evidence.Evidence;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** The index {@code report.html} of {@code --case all}: one line per case, read from that case's own evidence. */
public final class StudyIndex {

    private StudyIndex() {
    }

    /** Writes {@code dir/report.html}, linking each case folder named in {@code exits} (case name to the case's exit code). */
    public static void write(Path dir, Map<String, Integer> exits) {
        StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>Fencing study: every case</title>\n<style>\n")
                .append("body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #212121; max-width: 1000px; }\n")
                .append("table { border-collapse: collapse; } th, td { border: 1px solid #cfd8dc; padding: 4px 10px; text-align: left; }\n")
                .append("th { background: #eceff1; } .pass { color: #1b5e20; } .fail { color: #b71c1c; font-weight: 600; }\n")
                .append("</style>\n</head>\n<body>\n<h1>Fencing study: every case</h1>\n")
                .append("<p>Each case ran into a folder of its own, with its <code>evidence.json</code>, <code>report.md</code> and")
                .append(" <code>report.html</code>. Submit this whole folder as <code>study/</code>: each question of <code>ANSWERS.md</code>")
                .append(" names the case its figures come from.</p>\n<table id=\"cases\"><thead><tr><th>case</th><th>what it shows</th>")
                .append("<th>outcome</th><th>files</th></tr></thead><tbody>\n");
        exits.forEach((name, exit) -> row(html, dir, name, exit));
        html.append("</tbody></table>\n<p id=\"overall\">").append(Reports.esc(summary(exits))).append("</p>\n</body>\n</html>\n");
        try {
            Files.writeString(dir.resolve("report.html"), html.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the index in " + dir, e);
        }
    }

    /** Returns how the cases ended, in one sentence. */
    public static String summary(Map<String, Integer> exits) {
        long asExpected = exits.values().stream().filter(exit -> exit == 0).count();
        return String.format(Locale.ROOT, "%d of %d cases ended as expected%s.", asExpected, exits.size(),
                asExpected == exits.size() ? "" : "; not: " + String.join(", ", exits.entrySet().stream().filter(e -> e.getValue() != 0)
                        .map(Map.Entry::getKey).toList()));
    }

    private static void row(StringBuilder html, Path dir, String name, int exit) {
        Path evidence = dir.resolve(name).resolve(Evidence.FILE);
        String title;
        String outcome;
        try {
            Evidence.Study study = Evidence.read(evidence);
            title = study.caseTitle();
            outcome = study.chaos() != null
                    ? (study.chaos().differences().isEmpty() ? "as expected" : "not as expected: " + String.join("; ", study.chaos().differences()))
                    : String.format(Locale.ROOT, "%d of %d repeats as expected", study.summary().passed(), study.setup().repeatsAsked())
                            + (study.error() == null ? "" : "; could not finish: " + study.error());
        } catch (IOException | IllegalArgumentException e) {
            title = "";
            outcome = "no evidence: " + e.getMessage();
        }
        html.append("<tr data-case=\"").append(Reports.esc(name)).append("\" data-exit=\"").append(exit).append("\"><td><a href=\"")
                .append(Reports.esc(name)).append("/report.html\">").append(Reports.esc(name)).append("</a></td><td>").append(Reports.esc(title))
                .append("</td><td class=\"").append(exit == 0 ? "pass" : "fail").append("\">").append(Reports.esc(outcome))
                .append("</td><td><a href=\"").append(Reports.esc(name)).append("/evidence.json\">evidence.json</a> · <a href=\"")
                .append(Reports.esc(name)).append("/report.md\">report.md</a></td></tr>\n");
    }
}
