package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@DisplayName("Fencing: the lesson's timeline, and the rule that tells a stale token")
class FencingTests {

    @Test
    @DisplayName("With a fenced resource, the new owner's value survives A's late write")
    void fencedResourceKeepsNewOwnersValue() {
        String result = Fencing.scenario(Resource::new);

        assertThat(result)
                .as("B writes \"b\" with token 2, then A wakes up and writes \"a\" with token 1: a fenced resource"
                        + " rejects A's stale write, so the final value must be \"b\"")
                .isEqualTo("b");
    }

    @Test
    @DisplayName("With a naive resource, A's late write overwrites the new owner's value")
    void naiveResourceLetsStaleWriteIn() {
        String result = Fencing.scenario(NaiveResource::new);

        assertThat(result)
                .as("B writes \"b\" with token 2, then A wakes up and writes \"a\" with token 1: a naive resource"
                        + " accepts A's stale write, so the final value must be \"a\"")
                .isEqualTo("a");
    }

    @Test
    @DisplayName("A token below the highest is stale")
    void tokenBelowHighestIsStale() {
        assertThat(Fencing.isStale(7, 8))
                .as("token %d when the highest token seen is %d must be stale: a newer owner exists", 7, 8)
                .isTrue();
    }

    @Test
    @DisplayName("A token equal to the highest is not stale")
    void tokenEqualToHighestIsNotStale() {
        assertThat(Fencing.isStale(8, 8))
                .as("token %d when the highest token seen is %d must not be stale: it is the current owner's", 8, 8)
                .isFalse();
    }

    @Test
    @DisplayName("A token above the highest is not stale")
    void tokenAboveHighestIsNotStale() {
        assertThat(Fencing.isStale(9, 8))
                .as("token %d when the highest token seen is %d must not be stale: it comes from a newer owner", 9, 8)
                .isFalse();
    }

    @Test
    @Tag("extension")
    @DisplayName("Part 4: before B has written, a fenced resource still accepts A's late write")
    void preContactLateWriteIsAcceptedByAFencedResource() {
        PreContact result = Fencing.preContact(Resource::new);

        assertThat(result)
                .as("A writes \"a\" with token 1 after its lease expired but before B (token 2) has written: the"
                        + " resource has seen no higher token, so it accepts A; then B writes \"b\", so the result must be"
                        + " (true, \"b\")")
                .isEqualTo(new PreContact(true, "b"));
    }
}
