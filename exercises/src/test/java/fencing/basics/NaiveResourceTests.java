package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("NaiveResource: an unfenced resource accepts every write")
class NaiveResourceTests {

    @Test
    @DisplayName("A new naive resource has no value")
    void startsWithNoValue() {
        assertThat(new NaiveResource().value())
                .as("a naive resource that has had no write yet has no value (null)")
                .isNull();
    }

    @Test
    @DisplayName("A naive resource lets the old owner's late write in")
    void acceptsStaleWrite() {
        NaiveResource resource = new NaiveResource();
        resource.write(8, "new owner");

        boolean accepted = resource.write(7, "old owner");

        assertThat(accepted)
                .as("a naive resource does not look at tokens: a write with token %d after token %d must be accepted",
                        7, 8)
                .isTrue();
        assertThat(resource.value())
                .as("after the late write (7, \"old owner\") a naive resource holds \"old owner\"")
                .isEqualTo("old owner");
    }
}
