package fencing.lab.run.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** {@code --faults} as the nemesis reads it: names separated by commas, each a kind of fault, spelled back the same way. */
class FaultTests {

    @Test
    @DisplayName("names are read in any order and with spaces, and spelled back in one order")
    void readsTheNamesAndSpellsThemBackInOneOrder() {
        assertThat(Fault.parse("partition, freeze")).as("both, in the other order").containsExactly(Fault.FREEZE, Fault.PARTITION);
        assertThat(Fault.spell(Fault.parse("partition,freeze,partition"))).as("spelled back once each").isEqualTo("freeze,partition");
        assertThat(Fault.parse("Partition")).as("one, in any case, as --case reads its names").containsExactly(Fault.PARTITION);
        assertThat(Fault.spell(Fault.DEFAULT)).as("the default").isEqualTo("freeze");
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"", "freeze,", "pause", "freeze,cut", "freeze partition"})
    @DisplayName("anything but freeze and partition is refused, naming both")
    void refusesAnythingElseNamingTheFaults(String list) {
        assertThatThrownBy(() -> Fault.parse(list)).as("--faults %s", list).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no such fault").hasMessageContaining("use freeze or partition, comma-separated");
    }
}
