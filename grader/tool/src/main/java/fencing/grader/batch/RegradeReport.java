package fencing.grader.batch;

import fencing.grader.classpage.ClassPage;
import fencing.grader.files.BatchFolder;
import fencing.grader.files.GradeStatus;
import fencing.grader.files.ResultsFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a regrade changed, written as {@code regrade.md} and {@code regrade.csv}: per student the earlier and the new
 * score, the delta, and the tests whose verdict changed, read from the two batches' {@code results.json}.
 */
public final class RegradeReport {

    public static final String CSV_HEADER = "student,outcome,old_score,new_score,delta,old_max,new_max,changed,tests_changed";

    /**
     * A student's result as {@code results.json} tells it.
     *
     * @param score    the score, or null when grading could not run
     * @param max      the points available
     * @param status   what became of the submission
     * @param verdicts each test's name and whether it passed, in the report's order
     */
    private record Result(Integer score, int max, GradeStatus status, Map<String, Boolean> verdicts) {

        static Result read(Path file) throws IOException {
            ResultsFile results = ResultsFile.read(file);
            Map<String, Boolean> verdicts = new LinkedHashMap<>();
            for (ResultsFile.Test test : results.tests()) {
                if (test.explanation()) {
                    continue;
                }
                String name = test.name();
                for (int i = 2; verdicts.containsKey(name); i++) {
                    name = test.name() + " (" + i + ")";
                }
                verdicts.put(name, test.passed());
            }
            return new Result(results.score(), results.maxScore(), results.status(), verdicts);
        }

        String shown() {
            return score == null ? "no score (" + status.words() + ")"
                    : score + " / " + max + (status == GradeStatus.GRADED ? "" : " (" + status.words() + ")");
        }
    }

    /**
     * One student's line.
     *
     * @param outcome {@code reused}, {@code regraded}, or {@code new} for a student the earlier batch did not grade
     * @param changes the tests whose verdict changed, each as {@code name: old → new}
     */
    private record Line(String student, String outcome, Result before, Result now, boolean changed, List<String> changes) {

        String delta() {
            if (before == null || before.score() == null || now.score() == null) {
                return "";
            }
            int delta = now.score() - before.score();
            return delta > 0 ? "+" + delta : Integer.toString(delta);
        }
    }

    private RegradeReport() {
    }

    /**
     * Writes {@code regrade.md} and {@code regrade.csv} into {@code out} for the students {@code graded} there, and
     * returns the students whose score, status or verdicts changed.
     *
     * @param reused   the students whose earlier result was reused
     * @param everyone the whole class now, to tell who is no longer in it
     */
    static List<String> write(PreviousBatch before, Path out, List<String> graded, Set<String> reused, boolean sameGrader,
                              List<String> everyone) throws IOException {
        List<Line> lines = new ArrayList<>();
        for (String student : graded) {
            Result now = Result.read(BatchFolder.reports(out, student).resolve(ResultsFile.FILE));
            Path old = before.report(student).resolve(ResultsFile.FILE);
            Result then = before.graded(student) && Files.isRegularFile(old) ? Result.read(old) : null;
            lines.add(compare(student, reused.contains(student) ? "reused" : then == null ? "new" : "regraded", then, now));
        }
        List<String> changed = lines.stream().filter(Line::changed).map(Line::student).toList();
        List<String> gone = before.students().stream().filter(student -> !everyone.contains(student)).toList();
        writeCsv(lines, out);
        StringBuilder md = new StringBuilder("# Regrade since ").append(before.dir().toAbsolutePath().normalize()).append("\n\n");
        md.append(sameGrader ? "The grader is unchanged (hidden tests, grading policy, options and grader code): "
                + reused.size() + " of " + graded.size() + " submission(s) reused, whose student files are unchanged; "
                + (graded.size() - reused.size()) + " graded again."
                : "The grader changed (its hidden tests, grading policy, options or code): every submission was graded again.");
        List<String> maxima = lines.stream().filter(line -> line.before() != null && line.before().max() != line.now().max())
                .map(line -> line.before().max() + " → " + line.now().max()).distinct().toList();
        if (!maxima.isEmpty()) {
            md.append(" The points available changed: ").append(String.join(", ", maxima)).append('.');
        }
        md.append("\n\n**Changed: ").append(changed.size()).append(" of ").append(graded.size()).append(" student(s)**")
                .append(changed.isEmpty() ? "." : ": " + String.join(", ", changed) + ".").append("\n\n");
        md.append("| Student | Outcome | Old | New | Delta | Changed | Tests that changed verdict |\n|---|---|---|---|---|---|---|\n");
        for (Line line : lines) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s |%n", cell(line.student()), line.outcome(),
                    line.before() == null ? "" : line.before().shown(), line.now().shown(), line.delta(),
                    line.changed() ? "yes" : "", cell(String.join("; ", line.changes()))));
        }
        if (!gone.isEmpty()) {
            md.append("\nNo longer in the batch: ").append(String.join(", ", gone)).append('\n');
        }
        md.append("\nThe whole class at a glance, regraded and reused students alike: [").append(ClassPage.FILE).append("](")
                .append(ClassPage.FILE).append(").\n");
        Files.writeString(out.resolve(BatchFolder.REGRADE_MD), md, StandardCharsets.UTF_8);
        return changed;
    }

    private static Line compare(String student, String outcome, Result before, Result now) {
        if (before == null) {
            return new Line(student, outcome, null, now, true, List.of());
        }
        List<String> changes = new ArrayList<>();
        if (before.score() != null && now.score() != null) {
            Set<String> names = new LinkedHashSet<>(before.verdicts().keySet());
            names.addAll(now.verdicts().keySet());
            for (String name : names) {
                Boolean then = before.verdicts().get(name);
                Boolean passed = now.verdicts().get(name);
                if (!Objects.equals(then, passed)) {
                    changes.add(name + ": " + verdict(then) + " → " + verdict(passed));
                }
            }
        }
        boolean changed = !Objects.equals(before.score(), now.score()) || before.status() != now.status() || !changes.isEmpty();
        return new Line(student, outcome, before, now, changed, changes);
    }

    private static String verdict(Boolean passed) {
        return passed == null ? "not run" : passed ? "passed" : "failed";
    }

    private static void writeCsv(List<Line> lines, Path out) throws IOException {
        List<String> csv = new ArrayList<>(List.of(CSV_HEADER));
        for (Line line : lines) {
            Result before = line.before();
            csv.add(String.join(",", Gradebook.csvField(line.student()), line.outcome(),
                    before == null || before.score() == null ? "" : before.score().toString(),
                    line.now().score() == null ? "" : line.now().score().toString(), line.delta(),
                    before == null ? "" : Integer.toString(before.max()), Integer.toString(line.now().max()),
                    line.changed() ? "yes" : "no", Gradebook.csvField(String.join("; ", line.changes()))));
        }
        Files.write(out.resolve(BatchFolder.REGRADE_CSV), csv, StandardCharsets.UTF_8);
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
