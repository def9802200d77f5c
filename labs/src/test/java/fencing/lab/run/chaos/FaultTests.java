package fencing.lab.run.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** How {@code --faults} reads and spells the nemesis's faults, and how the history names their starts and ends. */
class FaultTests {

    @Test
    @DisplayName("--faults reads names in any order and case, and spells them back in one order")
    void readsNamesAndSpellsThemBackInOneOrder() {
        assertThat(Fault.parse(" Partition,freeze")).as("'Partition,freeze'").isEqualTo(EnumSet.of(Fault.FREEZE, Fault.PARTITION));
        assertThat(Fault.option(Fault.parse("partition,freeze"))).as("the spelling of both").isEqualTo("freeze,partition");
        assertThat(Fault.option(Fault.DEFAULT)).as("the default").isEqualTo("freeze");
    }

    @Test
    @DisplayName("an unknown or empty fault name is refused, naming the faults there are")
    void refusesUnknownNames() {
        assertThatThrownBy(() -> Fault.parse("freeze,flood")).as("'freeze,flood'").isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown fault 'flood'").hasMessageContaining("freeze or partition");
        assertThatThrownBy(() -> Fault.parse("")).as("an empty list").isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Fault.parse("freeze,")).as("a trailing comma").isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @DisplayName("the history's actions name the fault they start or end")
    void actionsNameTheirFault() {
        assertThat(Fault.ofAction("cut")).as("cut").contains(Fault.PARTITION);
        assertThat(Fault.ofAction("heal")).as("heal").contains(Fault.PARTITION);
        assertThat(Fault.ofAction("thaw")).as("thaw").contains(Fault.FREEZE);
        assertThat(Fault.ofAction("flood")).as("an action no fault has").isEmpty();
    }
}
