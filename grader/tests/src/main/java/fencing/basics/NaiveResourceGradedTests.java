package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("NaiveResource: the unfenced resource of the lesson accepts every write")
class NaiveResourceGradedTests {

    @Test
    @Graded(points = 1, tags = "scenario")
    @DisplayName("A new naive resource has no value")
    void startsWithNoValue() {
        assertThat(new NaiveResource().value())
                .as("a naive resource that has had no write yet has no value (null)")
                .isNull();
    }

    @Test
    @Graded(points = 2, tags = "scenario")
    @DisplayName("A naive resource accepts every write, whatever its token, and keeps the last one")
    void acceptsEveryWriteWhateverItsToken() {
        NaiveResource resource = new NaiveResource();
        long[] tokens = {8, 7, 7, 0, 100, 3};

        for (int i = 0; i < tokens.length; i++) {
            String value = "write " + (i + 1) + " with token " + tokens[i];
            boolean accepted = resource.write(tokens[i], value);

            assertThat(accepted)
                    .as("a naive resource trusts the lock alone and never looks at tokens: write %d with token %d"
                            + " must be accepted (tokens written: 8, 7, 7, 0, 100, 3)", i + 1, tokens[i])
                    .isTrue();
            assertThat(resource.value())
                    .as("after write %d with token %d a naive resource must hold that write's value",
                            i + 1, tokens[i])
                    .isEqualTo(value);
        }
    }
}
