package fencing.lab.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The one reading of every value the lab spells in its files and on its command line. */
class SpelledTests {

    /** A value spelled with a dash and a space, as the lab's own values are, e.g. {@code current-owner} and {@code not sent}. */
    private enum Colour implements Spelled {
        DARK_RED("dark-red"), NOT_SET("not set");

        private final String text;

        Colour(String text) {
            this.text = text;
        }

        @Override
        public String text() {
            return text;
        }
    }

    @Test
    @DisplayName("a value is found by its exact spelling, not by its Java name")
    void aValueIsFoundByItsExactSpelling() {
        assertThat(Spelled.exactly(Colour.class, "dark-red", "colour")).as("'dark-red'").isEqualTo(Colour.DARK_RED);
        assertThat(Spelled.find(Colour.class, "not set")).as("'not set'").contains(Colour.NOT_SET);
        assertThat(Spelled.find(Colour.class, "DARK_RED")).as("the Java name 'DARK_RED'").isEmpty();
    }

    @Test
    @DisplayName("another case, a surrounding space or null is refused, and the message names every spelling there is")
    void anyOtherSpellingIsRefusedWithTheSpellingsThereAre() {
        for (String text : new String[] {"Dark-Red", " dark-red", "dark-red ", "", null}) {
            assertThat(Spelled.find(Colour.class, text)).as("find with '%s'", text).isEmpty();
            assertThatThrownBy(() -> Spelled.exactly(Colour.class, text, "colour")).as("exactly with '%s'", text)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("no such colour '" + text + "': dark-red, not set");
        }
    }
}
