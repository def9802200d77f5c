package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Quorum: a majority is floor(members / 2) + 1")
class QuorumTests {

    @Test
    @DisplayName("A group of 3 needs 2 members for a majority and survives 1 failure")
    void groupOfThree() {
        assertThat(Quorum.size(3))
                .as("a majority of %d members is floor(%d / 2) + 1", 3, 3)
                .isEqualTo(2);
        assertThat(Quorum.tolerated(3))
                .as("a group of %d members still has a majority after this many failures", 3)
                .isEqualTo(1);
    }

    @Test
    @DisplayName("A group of 4 needs 3 members for a majority and still survives only 1 failure")
    void groupOfFour() {
        assertThat(Quorum.size(4))
                .as("a majority of %d members is floor(%d / 2) + 1: two of four is only half, not a majority", 4, 4)
                .isEqualTo(3);
        assertThat(Quorum.tolerated(4))
                .as("a group of %d members still has a majority after this many failures", 4)
                .isEqualTo(1);
    }

    @Test
    @DisplayName("A group of 5 needs 3 members for a majority and survives 2 failures")
    void groupOfFive() {
        assertThat(Quorum.size(5))
                .as("a majority of %d members is floor(%d / 2) + 1", 5, 5)
                .isEqualTo(3);
        assertThat(Quorum.tolerated(5))
                .as("a group of %d members still has a majority after this many failures", 5)
                .isEqualTo(2);
    }

    @Test
    @DisplayName("A group with no members is an error")
    void rejectsGroupWithoutMembers() {
        // The description goes first: assertThatThrownBy would fail before .as(...) when nothing is thrown.
        assertThatExceptionOfType(IllegalArgumentException.class)
                .as("a group of %d members has no majority: Quorum.size must throw IllegalArgumentException", 0)
                .isThrownBy(() -> Quorum.size(0));
    }
}
