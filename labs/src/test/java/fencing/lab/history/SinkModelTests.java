package fencing.lab.history;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.lab.history.SinkModel.Decision;
import fencing.lab.history.SinkModel.Rule;
import fencing.lab.history.SinkModel.State;
import fencing.lab.sink.Mode;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** How each mode of the sink decides one write ({@link SinkModel#decide}), the rules the activity page is held to. */
class SinkModelTests {

    private static final State AFTER_B = new State("B-current", 8);

    @Test
    @DisplayName("a late write below the mark: plain stores it, fenced and current-owner refuse it by the mark")
    void lateWriteBelowTheMark() {
        assertThat(SinkModel.decide(Mode.PLAIN, AFTER_B, 7, "A-late", false)).as("plain, token 7 after 8")
                .isEqualTo(new Decision(true, new State("A-late", 8), Rule.STORES_ANYTHING));
        assertThat(SinkModel.decide(Mode.FENCED, AFTER_B, 7, "A-late", false)).as("fenced, token 7 below the mark 8")
                .isEqualTo(new Decision(false, AFTER_B, Rule.BELOW_MARK));
        assertThat(SinkModel.decide(Mode.CURRENT_OWNER, AFTER_B, 7, "A-late", false)).as("current-owner: the mark is asked first")
                .isEqualTo(new Decision(false, AFTER_B, Rule.BELOW_MARK));
    }

    @Test
    @DisplayName("a write before the new owner's: fenced lets it in, the owner check refuses it")
    void preContactWrite() {
        assertThat(SinkModel.decide(Mode.FENCED, State.EMPTY, 7, "A-late", false).rule()).as("fenced, token 7 at mark 0")
                .isEqualTo(Rule.NOT_BELOW_MARK);
        assertThat(SinkModel.decide(Mode.CURRENT_OWNER, State.EMPTY, 7, "A-late", false)).as("current-owner, A no longer the holder")
                .isEqualTo(new Decision(false, State.EMPTY, Rule.NOT_CURRENT_OWNER));
    }

    @Test
    @DisplayName("an equal-token retry by the current holder is accepted again, in every mode")
    void equalTokenRetryIsAcceptedAgain() {
        for (Mode mode : Mode.values()) {
            assertThat(SinkModel.decide(mode, AFTER_B, 8, "B-current", true).accepted()).as("%s, token 8 at mark 8, B the holder", mode).isTrue();
        }
    }

    @Test
    @DisplayName("the register modes decide as the history checker's step does, for tokens below, at and above the mark")
    void decidesAsTheCheckersStep() {
        for (long token : new long[] {7, 8, 9}) {
            Operation accepted = new Operation(1, "W", token, "W", 0, 1, Operation.Outcome.ACCEPTED);
            Decision fenced = SinkModel.decide(Mode.FENCED, AFTER_B, token, "W", true);
            assertThat(SinkModel.HIGH_WATER_MARK.step(AFTER_B, accepted).isPresent()).as("the checker admits an acceptance of token %d", token)
                    .isEqualTo(fenced.accepted());
            if (fenced.accepted()) {
                assertThat(SinkModel.HIGH_WATER_MARK.step(AFTER_B, accepted)).as("the state after token %d", token).contains(fenced.after());
            }
        }
    }
}
