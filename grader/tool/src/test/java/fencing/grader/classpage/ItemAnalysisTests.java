package fencing.grader.classpage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The item analysis's figures on classes small enough to work out by hand. */
class ItemAnalysisTests {

    @Test
    @DisplayName("a test passed by the stronger half discriminates; the same test passed by the weaker half is marked as not")
    void discriminationFollowsWhoPassed() {
        List<Double> rest = List.of(10.0, 8.0, 4.0, 2.0);
        // By hand: mean 6, standard deviation sqrt(10), M1 - M0 = 9 - 3 = 6, p = q = 1/2: 6 / sqrt(10) / 2.
        Double strong = ItemAnalysis.pointBiserial(List.of(true, true, false, false), rest);
        Double weak = ItemAnalysis.pointBiserial(List.of(false, false, true, true), rest);

        assertThat(strong).as("discrimination of a test passed by the two with rest scores 10 and 8 of 10, 8, 4, 2")
                .isCloseTo(6 / Math.sqrt(10) / 2, within(1e-12));
        assertThat(weak).as("discrimination of a test passed by the two with rest scores 4 and 2").isCloseTo(-strong, within(1e-12));
        assertThat(new ItemAnalysis.Item("strong", List.of("quorum"), 1, 2, 4, strong).doesNotDiscriminate())
                .as("whether the test the stronger half passed is marked as not discriminating").isFalse();
        assertThat(new ItemAnalysis.Item("weak", List.of("quorum"), 1, 2, 4, weak).doesNotDiscriminate())
                .as("whether the test the weaker half passed is marked as not discriminating").isTrue();
    }

    @Test
    @DisplayName("a test everyone passes has no discrimination and is marked as passed by everyone, not as one that fails to discriminate")
    void aTestEveryonePassesIsMarkedSo() {
        Double none = ItemAnalysis.pointBiserial(List.of(true, true, true), List.of(3.0, 2.0, 1.0));
        ItemAnalysis.Item item = new ItemAnalysis.Item("easy", List.of("quorum"), 1, 3, 3, none);

        assertThat(none).as("the discrimination of a test all three passed").isNull();
        assertThat(item.everyonePassed()).as("whether a test 3 of 3 passed is marked as passed by everyone").isTrue();
        assertThat(item.doesNotDiscriminate()).as("whether it is marked as not discriminating as well").isFalse();
        assertThat(ItemAnalysis.pointBiserial(List.of(true, false), List.of(5.0, 5.0))).as("discrimination when the rest of the score"
                + " does not vary").isNull();
    }

    @Test
    @DisplayName("the rule phrase is the assertion's bracketed description, nested brackets and all, or the message without an exception's class")
    void theRulePhraseIsTheAssertionsDescription() {
        assertThat(ItemAnalysis.rulePhrase("[write 1 with token 0 must be accepted; the last writes were [(0, w1)]] \nexpected: true"))
                .as("the phrase of an AssertJ failure whose description holds brackets")
                .isEqualTo("write 1 with token 0 must be accepted; the last writes were [(0, w1)]");
        assertThat(ItemAnalysis.rulePhrase("java.lang.UnsupportedOperationException: Not implemented yet: Quorum.size\n\tat ..."))
                .as("the phrase of a stub's exception").isEqualTo("Not implemented yet: Quorum.size");
        assertThat(ItemAnalysis.rulePhrase("timed out after 10 s")).as("the phrase of a timeout").isEqualTo("timed out after 10 s");
        assertThat(ItemAnalysis.rulePhrase("not run: the submission did not compile")).as("the phrase of a test that never ran").isNull();
    }
}
