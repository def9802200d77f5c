package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import fencing.grading.Graded;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Quorum: a majority is floor(members / 2) + 1")
class QuorumGradedTests {

    @Test
    @Graded(points = 1, tags = "quorum")
    @DisplayName("Odd-sized groups: 1, 3, 5, 7 and 101 members")
    void majorityOfOddGroups() {
        int[][] cases = {{1, 1}, {3, 2}, {5, 3}, {7, 4}, {101, 51}};

        for (int[] c : cases) {
            assertThat(Quorum.size(c[0]))
                    .as("a majority of %d members is floor(%d / 2) + 1 = %d", c[0], c[0], c[1])
                    .isEqualTo(c[1]);
        }
    }

    @Test
    @Graded(points = 2, tags = "quorum")
    @DisplayName("Even-sized groups: half the members is not a majority")
    void majorityOfEvenGroups() {
        int[][] cases = {{2, 2}, {4, 3}, {6, 4}, {100, 51}};

        for (int[] c : cases) {
            assertThat(Quorum.size(c[0]))
                    .as("a majority of %d members is floor(%d / 2) + 1 = %d: exactly half is not a majority, or"
                            + " two halves could each elect a leader", c[0], c[0], c[1])
                    .isEqualTo(c[1]);
        }
    }

    @Test
    @Graded(points = 2, tags = "quorum")
    @DisplayName("Failures tolerated: members minus a majority")
    void toleratedFailures() {
        int[][] cases = {{1, 0}, {2, 0}, {3, 1}, {4, 1}, {5, 2}, {6, 2}, {7, 3}, {100, 49}, {101, 50}};

        for (int[] c : cases) {
            assertThat(Quorum.tolerated(c[0]))
                    .as("rule: a group survives as many failures as still leave a majority, members - size(members);"
                            + " a group of %d members needs %d for a majority, so it survives %d failures",
                            c[0], c[0] / 2 + 1, c[1])
                    .isEqualTo(c[1]);
        }
    }

    @Test
    @Graded(points = 2, tags = "quorum")
    @DisplayName("A group with fewer than 1 member is an error")
    void rejectsGroupsWithoutMembers() {
        for (int members : new int[] {0, -1, Integer.MIN_VALUE}) {
            assertThatCode(() -> Quorum.size(members))
                    .as("rule: a quorum needs at least one member; a group of %d members has no majority: Quorum.size(%d) must throw"
                            + " IllegalArgumentException", members, members)
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatCode(() -> Quorum.tolerated(members))
                    .as("rule: a quorum needs at least one member; a group of %d members has no majority: Quorum.tolerated(%d) must throw"
                            + " IllegalArgumentException", members, members)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
