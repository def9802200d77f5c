package fencing.grader.classpage;

import fencing.grader.StudentFiles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * The side-by-side page of one listed pair: both students' files, each region JPlag matched highlighted and numbered on
 * both sides with the same number (its row in the table of regions, which links to each side), so that a colour
 * repeated past the eighth region never has to be told apart by its shade.
 */
final class PairView {

    /** How many colours the regions cycle through; the number, not the colour, names a region. */
    private static final int COLOURS = 8;

    private PairView() {
    }

    /** Returns the file name of the page of {@code first} and {@code second}: readable, and distinct for distinct names. */
    static String fileName(String first, String second) {
        CRC32 hash = new CRC32();
        hash.update((first + "\n" + second).getBytes(StandardCharsets.UTF_8));
        return safe(first) + "--" + safe(second) + "-" + String.format(Locale.ROOT, "%08x", hash.getValue()) + ".html";
    }

    private static String safe(String name) {
        String safe = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return safe.length() > 40 ? safe.substring(0, 40) : safe;
    }

    /** Returns the page of {@code pair}, whose students' files are in {@code sources}. */
    static String html(SimilarityReport.Pair pair, Map<String, Map<String, String>> sources, String back) {
        String title = pair.first() + " and " + pair.second() + ": " + Html.percent(pair.average()) + " similar";
        StringBuilder page = new StringBuilder(Html.head(title, Assets.text("page.css")));
        page.append("<header><p class=\"back\"><a href=\"").append(Html.escape(back)).append("\">← the class page</a></p>\n<h1>")
                .append(Html.escape(pair.first())).append(" and ").append(Html.escape(pair.second())).append("</h1>\n<p>JPlag's average similarity <b>")
                .append(Html.percent(pair.average())).append("</b>, maximum <b>").append(Html.percent(pair.maximum()))
                .append("</b>, over the student-owned files with the handout's stubs left out. Similarity is for a person to")
                .append(" look into: it never changes a score.</p></header>\n<main>\n");
        page.append("<h2>Matched regions</h2>\n<table class=\"regions\"><thead><tr><th>#</th><th>").append(Html.escape(pair.first()))
                .append("</th><th>").append(Html.escape(pair.second())).append("</th><th class=\"num\">Tokens</th></tr></thead><tbody>\n");
        List<SimilarityReport.Region> regions = pair.regions();
        for (int i = 0; i < regions.size(); i++) {
            SimilarityReport.Region region = regions.get(i);
            page.append("<tr><td><span class=\"swatch m").append(i % COLOURS).append("\">").append(i + 1).append("</span></td><td><a href=\"#a-r")
                    .append(i + 1).append("\">").append(Html.escape(where(region.firstFile(), region.firstStart(), region.firstEnd())))
                    .append("</a></td><td><a href=\"#b-r").append(i + 1).append("\">")
                    .append(Html.escape(where(region.secondFile(), region.secondStart(), region.secondEnd())))
                    .append("</a></td><td class=\"num\">").append(region.tokens()).append("</td></tr>\n");
        }
        page.append("</tbody></table>\n");
        Map<String, String> left = sources.getOrDefault(pair.first(), Map.of());
        Map<String, String> right = sources.getOrDefault(pair.second(), Map.of());
        for (String file : files(regions)) {
            page.append("<h2 class=\"file\">").append(Html.escape(file)).append("</h2>\n<div class=\"sides\">\n");
            page.append(side("a", pair.first(), file, left.get(file), regions, true));
            page.append(side("b", pair.second(), file, right.get(file), regions, false));
            page.append("</div>\n");
        }
        return page.append("</main>\n</body>\n</html>\n").toString();
    }

    /** The files with a matched region on either side, in the order of the student-owned files. */
    private static List<String> files(List<SimilarityReport.Region> regions) {
        Set<String> found = new LinkedHashSet<>();
        regions.forEach(region -> {
            found.add(region.firstFile());
            found.add(region.secondFile());
        });
        List<String> ordered = new ArrayList<>(StudentFiles.PATHS.stream().filter(found::contains).toList());
        found.stream().filter(file -> !ordered.contains(file)).sorted().forEach(ordered::add);
        return ordered;
    }

    private static String side(String side, String student, String file, String text, List<SimilarityReport.Region> regions, boolean first) {
        StringBuilder out = new StringBuilder("<section class=\"side\"><h3>").append(Html.escape(student)).append("</h3>");
        if (text == null) {
            return out.append("<p class=\"note\">No such file.</p></section>\n").toString();
        }
        // Focusable, as a region that scrolls sideways must be for a reader without a mouse to scroll it.
        out.append("<pre class=\"code\" tabindex=\"0\">");
        String[] lines = text.split("\n", -1);
        for (int line = 1; line <= lines.length; line++) {
            StringBuilder numbers = new StringBuilder();
            for (int i = 0; i < regions.size(); i++) {
                if (startsAt(regions.get(i), file, line, first)) {
                    out.append("<a class=\"anchor\" id=\"").append(side).append("-r").append(i + 1).append("\"></a>");
                    numbers.append("<span class=\"region-number m").append(i % COLOURS).append("\" data-region=\"").append(i + 1)
                            .append("\">").append(i + 1).append("</span>");
                }
            }
            int region = regionAt(regions, file, line, first);
            out.append("<span class=\"line").append(region < 0 ? "\"" : " m" + (region % COLOURS) + "\" data-region=\"" + (region + 1)
                    + "\" title=\"region " + (region + 1) + "\"").append("><span class=\"ln\">").append(line).append("</span>").append(numbers)
                    .append(Html.escape(lines[line - 1])).append("</span>");
        }
        return out.append("</pre></section>\n").toString();
    }

    /** The index of the first region that covers {@code line} of {@code file} on one side, or -1. */
    private static int regionAt(List<SimilarityReport.Region> regions, String file, int line, boolean first) {
        for (int i = 0; i < regions.size(); i++) {
            SimilarityReport.Region region = regions.get(i);
            String inFile = first ? region.firstFile() : region.secondFile();
            int start = first ? region.firstStart() : region.secondStart();
            int end = first ? region.firstEnd() : region.secondEnd();
            if (inFile.equals(file) && line >= start && line <= end) {
                return i;
            }
        }
        return -1;
    }

    private static boolean startsAt(SimilarityReport.Region region, String file, int line, boolean first) {
        return (first ? region.firstFile() : region.secondFile()).equals(file) && (first ? region.firstStart() : region.secondStart()) == line;
    }

    private static String where(String file, int start, int end) {
        String name = file.substring(file.lastIndexOf('/') + 1);
        return start == end ? name + ":" + start : name + ":" + start + "–" + end;
    }
}
