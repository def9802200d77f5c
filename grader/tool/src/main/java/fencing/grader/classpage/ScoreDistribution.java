package fencing.grader.classpage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The distribution of one part's scores over the graded submissions: ten equal bins from 0 to the part's points
 * (the last one closed), the mean and the median.
 *
 * @param part   what is counted: {@code core}, {@code extension} or {@code total}
 * @param max    the points available; 0 when the part was not graded
 * @param scores the graded submissions' scores
 */
record ScoreDistribution(String part, int max, List<Integer> scores) {

    /** How many bins a histogram has. */
    static final int BINS = 10;

    ScoreDistribution {
        scores = List.copyOf(scores);
    }

    /** The mean; NaN without scores. */
    double mean() {
        return scores.stream().mapToInt(Integer::intValue).average().orElse(Double.NaN);
    }

    /** The median, the mean of the two middle scores for an even count; NaN without scores. */
    double median() {
        if (scores.isEmpty()) {
            return Double.NaN;
        }
        List<Integer> sorted = scores.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2.0;
    }

    /** How many scores fall in each bin: bin {@code i} holds scores from {@code i * max / 10} up to the next bin's start. */
    List<Integer> counts() {
        int[] counts = new int[BINS];
        scores.forEach(score -> counts[bin(score, max)]++);
        return java.util.Arrays.stream(counts).boxed().toList();
    }

    /** The bins' bounds, from 0 to the part's points: one more than the bins. */
    List<String> edges() {
        List<String> edges = new ArrayList<>();
        for (int i = 0; i <= BINS; i++) {
            double value = max * (double) i / BINS;
            edges.add(value == Math.rint(value) ? Integer.toString((int) value) : String.format(Locale.ROOT, "%.1f", value));
        }
        return edges;
    }

    /** The bin of {@code score} out of {@code max}. */
    static int bin(int score, int max) {
        return max <= 0 ? 0 : Math.min(BINS - 1, Math.max(0, (int) Math.floor(score * (double) BINS / max)));
    }

}
