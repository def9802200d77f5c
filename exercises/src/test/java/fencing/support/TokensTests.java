package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencing.etcd.Tokens;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The kit's own checks of the provided {@link Tokens}: layout, order across epochs, and range checks. */
class TokensTests {

    private static final long MAX_REVISION = (1L << 40) - 1;
    private static final long MAX_EPOCH = (1L << 23) - 1;

    @Test
    @DisplayName("an epoch-0 token is the revision itself")
    void epochZeroTokenIsTheRevision() {
        assertThat(Tokens.compose(0, 12345)).as("compose(0, r) must be r").isEqualTo(12345);
        assertThat(Tokens.compose(0, 0)).as("compose(0, 0)").isZero();
    }

    @Test
    @DisplayName("epoch and revision come back out of the token they were composed into")
    void partsRoundTrip() {
        for (long[] parts : new long[][] {{0, 0}, {1, 1}, {3, 77}, {MAX_EPOCH, MAX_REVISION}, {MAX_EPOCH, 0}, {0, MAX_REVISION}}) {
            long token = Tokens.compose(parts[0], parts[1]);
            assertThat(token).as("compose(%d, %d) must be epoch << 40 | revision", parts[0], parts[1]).isEqualTo(parts[0] << 40 | parts[1]);
            assertThat(Tokens.epoch(token)).as("epoch of compose(%d, %d)", parts[0], parts[1]).isEqualTo(parts[0]);
            assertThat(Tokens.revision(token)).as("revision of compose(%d, %d)", parts[0], parts[1]).isEqualTo(parts[1]);
            assertThat(token).as("compose(%d, %d) must stay positive", parts[0], parts[1]).isNotNegative();
        }
    }

    @Test
    @DisplayName("any token of a later epoch is larger than every token of an earlier one")
    void laterEpochOutranksAnyRevision() {
        assertThat(Tokens.compose(1, 0)).as("the smallest epoch-1 token against the largest epoch-0 token")
                .isGreaterThan(Tokens.compose(0, MAX_REVISION));
        assertThat(Tokens.compose(5, 3)).as("epoch 5, revision 3 against epoch 4, revision 1,000,000")
                .isGreaterThan(Tokens.compose(4, 1_000_000));
    }

    @Test
    @DisplayName("a revision or epoch out of range, or a negative token, is refused with the range in the message")
    void outOfRangeIsRefused() {
        assertThatThrownBy(() -> Tokens.compose(0, 1L << 40)).as("revision 2^40 would run into the epoch's bits")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[0, 2^40)");
        assertThatThrownBy(() -> Tokens.compose(0, -1)).as("a negative revision")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[0, 2^40)");
        assertThatThrownBy(() -> Tokens.compose(1L << 23, 0)).as("epoch 2^23 would reach the sign bit")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[0, 2^23)");
        assertThatThrownBy(() -> Tokens.compose(-1, 0)).as("a negative epoch")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[0, 2^23)");
        assertThatThrownBy(() -> Tokens.epoch(-1)).as("the epoch of a negative token")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never negative");
        assertThatThrownBy(() -> Tokens.revision(Long.MIN_VALUE)).as("the revision of a negative token")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never negative");
    }
}
