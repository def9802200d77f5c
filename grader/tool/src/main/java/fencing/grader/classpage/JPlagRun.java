package fencing.grader.classpage;

import de.jplag.GreedyStringTiling;
import de.jplag.JPlagComparison;
import de.jplag.Language;
import de.jplag.Submission;
import de.jplag.SubmissionSet;
import de.jplag.SubmissionSetBuilder;
import de.jplag.Token;
import de.jplag.clustering.ClusteringOptions;
import de.jplag.exceptions.ExitException;
import de.jplag.exceptions.SubmissionException;
import de.jplag.options.JPlagOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs JPlag's comparison so that the same folders always give the same figures: the submissions parsed by JPlag, then
 * each submission's tokens put in the order of its files' paths, and every pair compared one after the other, in name
 * order.
 *
 * <p>{@code JPlag.run()} of 4.3 gives figures that differ between runs over the same folders, by more than a point: its
 * parser takes each submission's files from a hash set of absolute paths, so their order follows the temporary
 * folder's name; its comparisons run on a parallel stream over caches that are not thread-safe and number token types
 * in the order threads meet them; and two submissions of equal length are compared in whichever order they come.
 */
final class JPlagRun {

    /**
     * What JPlag found.
     *
     * @param invalid     the names of the submissions JPlag could not parse, or that hold too few tokens
     * @param comparisons every pair of the others, the first submission's name sorting first
     */
    record Result(List<String> invalid, List<JPlagComparison> comparisons) {
    }

    private JPlagRun() {
    }

    /**
     * Compares every two submissions in {@code root} (one folder each, named so that they sort as they should be
     * compared) with {@code base} as base code.
     *
     * @param suffixes the file names JPlag reads, by how they end
     * @throws SubmissionException when fewer than two submissions could be read
     */
    static Result compare(Language language, List<String> suffixes, Path root, Path base) throws ExitException {
        JPlagOptions options = new JPlagOptions(language, Set.of(root.toFile()), Set.of()).withFileSuffixes(suffixes)
                .withBaseCodeSubmissionDirectory(base.toFile()).withMaximumNumberOfComparisons(JPlagOptions.SHOW_ALL_COMPARISONS)
                .withClusteringOptions(new ClusteringOptions().withEnabled(false));
        SubmissionSet set = new SubmissionSetBuilder(language, options).buildSubmissionSet();
        if (set.numberOfSubmissions() < 2) {
            throw new SubmissionException("only " + set.numberOfSubmissions() + " submission(s) could be read: a comparison needs two");
        }
        List<Submission> submissions = new ArrayList<>(set.getSubmissions());
        submissions.sort(Comparator.comparing(Submission::getName));
        inFileOrder(set.getBaseCode());
        submissions.forEach(JPlagRun::inFileOrder);
        GreedyStringTiling tiling = new GreedyStringTiling(options);
        for (Submission submission : submissions) {
            submission.setBaseCodeComparison(tiling.generateBaseCodeMarking(submission, set.getBaseCode()));
        }
        List<JPlagComparison> comparisons = new ArrayList<>();
        for (int i = 0; i < submissions.size(); i++) {
            for (int j = i + 1; j < submissions.size(); j++) {
                comparisons.add(tiling.compare(submissions.get(i), submissions.get(j)));
            }
        }
        List<String> invalid = set.getInvalidSubmissions().stream().map(Submission::getName).sorted().toList();
        return new Result(invalid, List.copyOf(comparisons));
    }

    /** Puts the tokens of {@code submission} in the order of its files' paths, each file's tokens (its end included) kept in order. */
    private static void inFileOrder(Submission submission) {
        Map<String, List<Token>> byFile = new LinkedHashMap<>();
        for (Token token : submission.getTokenList()) {
            byFile.computeIfAbsent(token.getFile().getPath(), file -> new ArrayList<>()).add(token);
        }
        List<Token> ordered = new ArrayList<>();
        byFile.keySet().stream().sorted().forEach(file -> ordered.addAll(byFile.get(file)));
        submission.setTokenList(ordered);
    }
}
