package fencing.lab.run.cases;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.lab.run.CaseToRun;
import fencing.lab.sink.Mode;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A case run without a mode expects, serves and explains the rest, and is otherwise the case itself. */
class CaseToRunTests {

    @Test
    @DisplayName("Without current-owner, the forged case expects and serves plain and fenced, and says why the mode is missing")
    void leavesTheModeOut() {
        Forged forged = new Forged();
        CaseToRun run = new CaseToRun(forged, Map.of(Mode.CURRENT_OWNER, "EtcdOwnerCheck is not written yet"));

        assertThat(run.expected()).containsOnlyKeys(Mode.PLAIN, Mode.FENCED);
        assertThat(run.expected().get(Mode.FENCED)).isEqualTo(forged.expected().get(Mode.FENCED));
        assertThat(run.modes()).containsExactly(Mode.PLAIN, Mode.FENCED);
        assertThat(run.explanation()).startsWith(forged.explanation())
                .endsWith(" (The current-owner mode was left out of this run: EtcdOwnerCheck is not written yet."
                        + " It belongs to Part 4, the extension.)");
        assertThat(run.labCase().steps()).isEqualTo(forged.steps());
    }

    @Test
    @DisplayName("Run whole, the case expects, serves and explains what it declares")
    void runsWhole() {
        Forged forged = new Forged();
        CaseToRun run = CaseToRun.whole(forged);

        assertThat(run.expected()).isEqualTo(forged.expected());
        assertThat(run.modes()).isEqualTo(List.of(Mode.PLAIN, Mode.FENCED, Mode.CURRENT_OWNER));
        assertThat(run.explanation()).isEqualTo(forged.explanation());
    }
}
