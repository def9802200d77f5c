package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Fencing: the lesson's timeline, and the rule that tells a stale token")
class FencingGradedTests {

    @Test
    @Graded(points = 2, tags = "scenario")
    @DisplayName("With a fenced resource, the new owner's value survives A's late write")
    void fencedResourceKeepsNewOwnersValue() {
        String result = Fencing.scenario(Resource::new);

        assertThat(result)
                .as("B writes \"b\" with token 2, then A wakes up and writes \"a\" with its old token 1: a fenced"
                        + " resource rejects A's stale write, so the scenario must return \"b\", but it returned %s",
                        quoted(result))
                .isEqualTo("b");
    }

    @Test
    @Graded(points = 2, tags = "scenario")
    @DisplayName("With a naive resource, A's late write overwrites the new owner's value")
    void naiveResourceLetsStaleWriteIn() {
        String result = Fencing.scenario(NaiveResource::new);

        assertThat(result)
                .as("B writes \"b\" with token 2, then A wakes up and writes \"a\" with its old token 1: a naive"
                        + " resource accepts A's stale write, so the scenario must return \"a\", but it returned %s",
                        quoted(result))
                .isEqualTo("a");
    }

    @Test
    @Graded(points = 1, tags = "scenario")
    @DisplayName("The scenario makes its resource with the given supplier, exactly once")
    void asksTheSupplierExactlyOnce() {
        AtomicInteger calls = new AtomicInteger();

        Fencing.scenario(() -> {
            calls.incrementAndGet();
            return new RecordingResource(token -> true);
        });

        assertThat(calls.get())
                .as("both clients write to one resource, made by the supplier passed to scenario: the supplier"
                        + " must be called exactly once, but it was called %d times", calls.get())
                .isEqualTo(1);
    }

    @Test
    @Graded(points = 2, tags = "scenario")
    @DisplayName("B writes \"b\" with token 2 first, then A writes \"a\" with its old token 1")
    void writesInTheLessonsOrderWithTheGrantedTokens() {
        List<RecordingResource> made = new ArrayList<>();
        Supplier<RecordingResource> recording = () -> {
            RecordingResource resource = new RecordingResource(token -> true);
            made.add(resource);
            return resource;
        };

        Fencing.scenario(recording);
        Fencing.scenario(recording);

        assertThat(made)
                .as("each scenario must make exactly one resource with the supplier, but two scenarios made %d",
                        made.size())
                .hasSize(2);
        for (int run = 0; run < made.size(); run++) {
            assertThat(made.get(run).writes())
                    .as("in the lesson's timeline A acquires (token 1) and pauses, B acquires (token 2) and writes"
                            + " \"b\", then A wakes up and writes \"a\" with its old token 1; scenario run %d offered"
                            + " its resource the writes %s", run + 1, made.get(run).writes())
                    .containsExactly("(2, \"b\")", "(1, \"a\")");
        }
    }

    @Test
    @Graded(points = 2, tags = "scenario")
    @DisplayName("The scenario returns the value its resource holds at the end, whatever that resource decided")
    void returnsTheResourcesFinalValue() {
        RecordingResource acceptsAll = new RecordingResource(token -> true);
        RecordingResource rejectsAll = new RecordingResource(token -> false);
        RecordingResource acceptsOnlyTokenOne = new RecordingResource(token -> token == 1);

        String all = Fencing.scenario(() -> acceptsAll);
        String none = Fencing.scenario(() -> rejectsAll);
        String onlyA = Fencing.scenario(() -> acceptsOnlyTokenOne);

        assertThat(all)
                .as("with a resource that accepts both writes, the final value is A's late \"a\"; the scenario"
                        + " must return the resource's value, but it returned %s", quoted(all))
                .isEqualTo("a");
        assertThat(none)
                .as("with a resource that rejects every write, the resource holds no value (null); the scenario"
                        + " must return the resource's value, but it returned %s", quoted(none))
                .isNull();
        assertThat(onlyA)
                .as("with a resource that accepts only token 1 (A's), the final value is \"a\"; the scenario"
                        + " must return the resource's value, but it returned %s", quoted(onlyA))
                .isEqualTo("a");
    }

    @Test
    @Graded(points = 1, tags = "stale-rejection")
    @DisplayName("A token below the highest token seen is stale")
    void tokenBelowHighestIsStale() {
        long[][] cases = {{7, 8}, {0, 1}, {1, 2}, {1, Long.MAX_VALUE}, {Long.MAX_VALUE - 1, Long.MAX_VALUE}};

        for (long[] c : cases) {
            assertThat(Fencing.isStale(c[0], c[1]))
                    .as("token %d when the highest token seen is %d must be stale (token < highest): its holder has"
                            + " been replaced by a newer owner", c[0], c[1])
                    .isTrue();
        }
    }

    @Test
    @Graded(points = 2, tags = "equal-token-acceptance")
    @DisplayName("A token equal to the highest token seen is not stale")
    void tokenEqualToHighestIsNotStale() {
        long[] cases = {8, 0, 1, Long.MAX_VALUE};

        for (long highest : cases) {
            assertThat(Fencing.isStale(highest, highest))
                    .as("token %d when the highest token seen is %d must not be stale: it is the current owner's"
                            + " token, and a resource accepts token >= highest", highest, highest)
                    .isFalse();
        }
    }

    @Test
    @Graded(points = 1, tags = "stale-rejection")
    @DisplayName("A token above the highest token seen is not stale")
    void tokenAboveHighestIsNotStale() {
        long[][] cases = {{9, 8}, {1, 0}, {Long.MAX_VALUE, 0}, {Long.MAX_VALUE, Long.MAX_VALUE - 1}};

        for (long[] c : cases) {
            assertThat(Fencing.isStale(c[0], c[1]))
                    .as("token %d when the highest token seen is %d must not be stale: it comes from a newer owner",
                            c[0], c[1])
                    .isFalse();
        }
    }

    private static String quoted(String value) {
        return value == null ? "null" : "\"" + value + "\"";
    }
}
