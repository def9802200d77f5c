package fencing.grader.classpage;

import java.util.List;
import java.util.Map;

/**
 * What the similarity check found in a class: the pairs at or above the threshold with the regions JPlag matched, and
 * enough about the other pairs to see how far the flagged ones stand out.
 *
 * @param threshold    the average similarity, in percent, at which a pair is listed
 * @param compared     the students whose files were compared, in order
 * @param skipped      each student left out, with why (no files kept, refused by the intake, not parseable by JPlag)
 * @param pairs        the pairs at or above the threshold, most similar first
 * @param pairCount    how many pairs were compared in all
 * @param distribution how many pairs fell in each tenth of average similarity: [0, 10 %), [10, 20 %) ... [90, 100 %]
 * @param highestBelow the most similar pair under the threshold, or null when there is none
 * @param seconds      how long JPlag took, parsing included
 * @param sources      the student-owned files of each student in a listed pair, by path below {@code src/main/java}
 * @param answersCompared how many of the compared students' {@code ANSWERS.md} JPlag's text language compared
 * @param answers      the pairs whose {@code ANSWERS.md} prose is at or above the threshold, most similar first, without regions
 */
record SimilarityReport(double threshold, List<String> compared, Map<String, String> skipped, List<Pair> pairs, int pairCount,
                        List<Integer> distribution, Pair highestBelow, double seconds, Map<String, Map<String, String>> sources,
                        int answersCompared, List<Pair> answers) {

    /**
     * Two students' similarity as JPlag measures it.
     *
     * @param first   the student whose name sorts first
     * @param second  the other student
     * @param average JPlag's average similarity in percent: the matched tokens over both submissions' tokens, the base
     *                code left out
     * @param maximum JPlag's maximum similarity in percent: the matched tokens over the smaller submission's tokens
     * @param regions the matched regions, largest first
     */
    record Pair(String first, String second, double average, double maximum, List<Region> regions) {

        /** Returns the name of the pair's side-by-side page, inside the {@code similarity} folder. */
        String view() {
            return PairView.fileName(first, second);
        }
    }

    /**
     * One region JPlag matched: a run of tokens in the first student's file and the same run in the second's.
     *
     * @param firstFile   the first student's file, below {@code src/main/java}
     * @param firstStart  its first line
     * @param firstEnd    its last line
     * @param secondFile  the second student's file
     * @param secondStart its first line
     * @param secondEnd   its last line
     * @param tokens      how many tokens matched
     */
    record Region(String firstFile, int firstStart, int firstEnd, String secondFile, int secondStart, int secondEnd, int tokens) {
    }
}
