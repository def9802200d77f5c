package fencing.grader.classpage;

import de.jplag.JPlagComparison;
import de.jplag.Match;
import de.jplag.Submission;
import de.jplag.Token;
import de.jplag.exceptions.ExitException;
import de.jplag.exceptions.SubmissionException;
import de.jplag.java.Language;
import fencing.grader.KitLocations;
import fencing.grader.StudentFiles;
import fencing.grader.pipeline.SubmissionIntake;
import fencing.support.FileTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Finds similar submissions with JPlag: the student-owned Java files of each submission, read through the grader's
 * intake (regular files only, never through a link), compared pairwise with the handout's stubs as base code, so
 * that the code every student was given never counts as similar.
 *
 * <p>Similarity is information for the instructor: nothing here reads or changes a score.
 */
final class Similarity {

    /**
     * The default threshold: the average similarity, in percent, at which a pair is listed. The grader's README gives the
     * measurements it rests on: a copy of the solutions with renamed names and moved methods, and the catalog's variants
     * that keep the solutions' method bodies, score above it; the variants that take another approach, two files making
     * the same jetcd calls, and the stubs alone, below.
     */
    static final double DEFAULT_THRESHOLD = 65;

    private static final String ANSWERS = "ANSWERS.md";

    /** Most similar first, then by the students' names: a fixed order for every list of pairs. */
    private static final Comparator<SimilarityReport.Pair> ORDER = Comparator.comparingDouble(SimilarityReport.Pair::average).reversed()
            .thenComparing(SimilarityReport.Pair::first).thenComparing(SimilarityReport.Pair::second);

    /**
     * A submission folder to compare.
     *
     * @param student the student's name
     * @param folder  the folder, laid out like {@code exercises/}
     */
    record Folder(String student, Path folder) {
    }

    /** The simple logger's setting for JPlag's clustering, which warns on every run that it is off, as the kit asks. */
    private static final String CLUSTERING_LOG = "org.slf4j.simpleLogger.log.de.jplag.clustering.ClusteringFactory";

    static {
        if (System.getProperty(CLUSTERING_LOG) == null) {
            System.setProperty(CLUSTERING_LOG, "error");
        }
    }

    private Similarity() {
    }

    /**
     * Compares every two of {@code folders} and lists the pairs whose average similarity is at least
     * {@code threshold} percent.
     */
    static SimilarityReport compare(List<Folder> folders, double threshold) throws IOException {
        Path work = Files.createTempDirectory("fencing-similarity-");
        try {
            return compare(folders, threshold, work);
        } finally {
            FileTrees.delete(work);
        }
    }

    private static SimilarityReport compare(List<Folder> folders, double threshold, Path work) throws IOException {
        long start = System.nanoTime();
        Set<String> provided = KitSources.provided();
        Path root = Files.createDirectories(work.resolve("submissions"));
        Map<String, String> students = new LinkedHashMap<>();
        Map<String, String> skipped = new LinkedHashMap<>();
        for (Folder folder : folders) {
            // Numbered folders: a student's name need not be a file name JPlag handles well.
            String id = String.format(Locale.ROOT, "%05d", students.size() + skipped.size());
            SubmissionIntake.Result taken = SubmissionIntake.take(folder.folder(),
                    root.resolve(id).resolve(StudentFiles.SOURCE_ROOT), provided);
            if (taken.accepted()) {
                students.put(id, folder.student());
            } else {
                skipped.put(folder.student(), "its files could not be read: " + taken.refusal().lines().findFirst().orElse(""));
                FileTrees.delete(root.resolve(id));
            }
        }
        if (students.size() < 2) {
            return new SimilarityReport(threshold, List.copyOf(students.values()), skipped, List.of(), 0, buckets(List.of()),
                    null, seconds(start), Map.of(), 0, List.of());
        }
        JPlagRun.Result result;
        try {
            result = JPlagRun.compare(new Language(), List.of(".java"), root, KitSources.stubs(work.resolve("base").resolve(StudentFiles.SOURCE_ROOT)));
        } catch (SubmissionException e) {
            students.values().forEach(student -> skipped.put(student, "JPlag could not compare the class: " + e.getMessage()));
            return new SimilarityReport(threshold, List.of(), skipped, List.of(), 0, buckets(List.of()), null, seconds(start), Map.of(),
                    0, List.of());
        } catch (ExitException e) {
            throw new IllegalStateException("JPlag could not run over the class: " + e.getMessage(), e);
        }
        for (String invalid : result.invalid()) {
            skipped.put(students.remove(invalid), "JPlag could not parse its files (a syntax error), or they hold"
                    + " fewer tokens than one match needs");
        }
        List<SimilarityReport.Pair> all = new ArrayList<>();
        for (JPlagComparison comparison : result.comparisons()) {
            all.add(pair(comparison, students, root));
        }
        all.sort(ORDER);
        List<SimilarityReport.Pair> listed = all.stream().filter(pair -> listed(pair, threshold)).toList();
        SimilarityReport.Pair highestBelow = all.stream().filter(pair -> !listed(pair, threshold)).findFirst()
                .map(pair -> new SimilarityReport.Pair(pair.first(), pair.second(), pair.average(), pair.maximum(), List.of()))
                .orElse(null);
        Map<String, Map<String, String>> sources = new TreeMap<>();
        for (Map.Entry<String, String> student : students.entrySet()) {
            if (listed.stream().anyMatch(pair -> pair.first().equals(student.getValue()) || pair.second().equals(student.getValue()))) {
                sources.put(student.getValue(), read(root.resolve(student.getKey()).resolve(StudentFiles.SOURCE_ROOT)));
            }
        }
        Answers answers = answers(students, root, work, threshold);
        return new SimilarityReport(threshold, List.copyOf(students.values()), skipped, listed, all.size(), buckets(all),
                highestBelow, seconds(start), sources, answers.compared(), answers.listed());
    }

    /** Whether {@code pair} is listed at {@code threshold}: the one test the list, the histogram's red and the CSV share. */
    static boolean listed(SimilarityReport.Pair pair, double threshold) {
        return pair.average() >= threshold;
    }

    /** How many students' {@code ANSWERS.md} were compared, and the pairs of them at or above the threshold. */
    private record Answers(int compared, List<SimilarityReport.Pair> listed) {
    }

    /**
     * Compares the prose of the compared students' {@code ANSWERS.md} with JPlag's text language (words as tokens,
     * the handout's template as base code, so that the questions every student was given never count).
     */
    private static Answers answers(Map<String, String> students, Path root, Path work, double threshold) throws IOException {
        Path answers = Files.createDirectories(work.resolve("answers"));
        int found = 0;
        for (String id : students.keySet()) {
            Path file = root.resolve(id).resolve(ANSWERS);
            if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                Files.copy(file, Files.createDirectories(answers.resolve(id)).resolve(ANSWERS));
                found++;
            }
        }
        if (found < 2) {
            return new Answers(found, List.of());
        }
        Path template = Files.createDirectories(work.resolve("answers-base"));
        Files.copy(KitLocations.exercises().resolve(ANSWERS), template.resolve(ANSWERS));
        JPlagRun.Result result;
        try {
            result = JPlagRun.compare(new de.jplag.text.Language(), List.of(".md"), answers, template);
        } catch (ExitException e) {
            throw new IllegalStateException("JPlag could not compare the answers: " + e.getMessage(), e);
        }
        List<SimilarityReport.Pair> listed = new ArrayList<>();
        for (JPlagComparison comparison : result.comparisons()) {
            String a = students.get(comparison.firstSubmission().getName());
            String b = students.get(comparison.secondSubmission().getName());
            SimilarityReport.Pair pair = new SimilarityReport.Pair(a.compareTo(b) > 0 ? b : a, a.compareTo(b) > 0 ? a : b,
                    percent(comparison.similarity()), percent(comparison.maximalSimilarity()), List.of());
            if (listed(pair, threshold)) {
                listed.add(pair);
            }
        }
        listed.sort(ORDER);
        return new Answers(found - result.invalid().size(), List.copyOf(listed));
    }

    /** The pair of {@code comparison}, its students in name order, with the regions it matched when it is listed. */
    private static SimilarityReport.Pair pair(JPlagComparison comparison, Map<String, String> students, Path root) {
        String a = students.get(comparison.firstSubmission().getName());
        String b = students.get(comparison.secondSubmission().getName());
        boolean swap = a.compareTo(b) > 0;
        List<SimilarityReport.Region> regions = new ArrayList<>();
        for (Match match : comparison.matches()) {
            Span first = span(comparison.firstSubmission(), match.startOfFirst(), match.endOfFirst(), root);
            Span second = span(comparison.secondSubmission(), match.startOfSecond(), match.endOfSecond(), root);
            Span left = swap ? second : first;
            Span right = swap ? first : second;
            regions.add(new SimilarityReport.Region(left.file(), left.start(), left.end(), right.file(), right.start(), right.end(),
                    match.length()));
        }
        regions.sort(Comparator.comparingInt(SimilarityReport.Region::tokens).reversed());
        return new SimilarityReport.Pair(swap ? b : a, swap ? a : b, percent(comparison.similarity()),
                percent(comparison.maximalSimilarity()), List.copyOf(regions));
    }

    /** Where a run of tokens lies: its file below {@code src/main/java}, its first and last line. */
    private record Span(String file, int start, int end) {
    }

    private static Span span(Submission submission, int from, int to, Path root) {
        List<Token> tokens = submission.getTokenList();
        Token first = tokens.get(from);
        Token last = tokens.get(to);
        Path sources = root.resolve(submission.getName()).resolve(StudentFiles.SOURCE_ROOT).toAbsolutePath();
        Path file = first.getFile().toPath().toAbsolutePath();
        String shown = file.startsWith(sources) ? sources.relativize(file).toString().replace('\\', '/') : file.getFileName().toString();
        return new Span(shown, first.getLine(), Math.max(first.getLine(), last.getLine()));
    }

    /** Reads the student-owned files under {@code sources}, by their path below it. */
    private static Map<String, String> read(Path sources) throws IOException {
        Map<String, String> files = new TreeMap<>();
        for (String path : StudentFiles.PATHS) {
            Path file = sources.resolve(path);
            if (Files.isRegularFile(file)) {
                files.put(path, Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        return Collections.unmodifiableMap(files);
    }

    /** How many of {@code pairs} fall in each tenth of average similarity: [0, 10 %), [10, 20 %) ... [90, 100 %]. */
    static List<Integer> buckets(List<SimilarityReport.Pair> pairs) {
        int[] counts = new int[10];
        pairs.forEach(pair -> counts[Math.min(9, (int) (pair.average() / 10))]++);
        return java.util.Arrays.stream(counts).boxed().toList();
    }

    /** A similarity in percent, to one decimal: the figure shown is the figure compared with the threshold. */
    private static double percent(double fraction) {
        return Math.round(fraction * 1000) / 10.0;
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }
}
