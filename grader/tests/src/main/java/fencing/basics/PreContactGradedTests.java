package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Part 4: the pre-contact timeline, A's late write before B has written")
class PreContactGradedTests {

    @Test
    @Graded(points = 2, tags = {"extension", "pre-contact"})
    @DisplayName("Before B has written, a fenced resource accepts A's late write; B's value wins in the end")
    void fencedResourceAcceptsTheLateWriteBeforeBHasWritten() {
        PreContact fenced = Fencing.preContact(Resource::new);
        PreContact naive = Fencing.preContact(NaiveResource::new);

        assertThat(fenced)
                .as("A's lease expired and B acquired (token 2) but has not written: a high-water-mark-only resource has "
                        + "seen no token above A's 1, so it can still accept A's late \"a\"; then B writes \"b\". With "
                        + "Resource::new the result must be (true, \"b\"), but it was %s", fenced)
                .isEqualTo(new PreContact(true, "b"));
        assertThat(naive)
                .as("a naive resource accepts every write, so with NaiveResource::new the result must be (true, \"b\"), "
                        + "but it was %s", naive)
                .isEqualTo(new PreContact(true, "b"));
    }

    @Test
    @Graded(points = 1, tags = {"extension", "pre-contact"})
    @DisplayName("preContact makes its resource with the given supplier, exactly once")
    void asksTheSupplierExactlyOnce() {
        AtomicInteger calls = new AtomicInteger();

        Fencing.preContact(() -> {
            calls.incrementAndGet();
            return new RecordingResource(token -> true);
        });

        assertThat(calls.get())
                .as("both clients write to one resource, made by the supplier passed to preContact: the supplier must be "
                        + "called exactly once, but it was called %d times", calls.get())
                .isEqualTo(1);
    }

    @Test
    @Graded(points = 2, tags = {"extension", "pre-contact"})
    @DisplayName("A writes \"a\" with its old token 1 first, then B writes \"b\" with token 2")
    void writesInThePreContactOrderWithTheGrantedTokens() {
        List<RecordingResource> made = new ArrayList<>();
        Supplier<RecordingResource> recording = () -> {
            RecordingResource resource = new RecordingResource(token -> true);
            made.add(resource);
            return resource;
        };

        Fencing.preContact(recording);
        Fencing.preContact(recording);

        assertThat(made)
                .as("each preContact run must make exactly one resource with the supplier, but two runs made %d", made.size())
                .hasSize(2);
        for (int run = 0; run < made.size(); run++) {
            assertThat(made.get(run).writes())
                    .as("in the pre-contact timeline A acquires (token 1) and pauses, B acquires (token 2) but has not "
                            + "written, A resumes and writes \"a\" with token 1, then B writes \"b\"; run %d offered its "
                            + "resource the writes %s", run + 1, made.get(run).writes())
                    .containsExactly("(1, \"a\")", "(2, \"b\")");
        }
    }

    @Test
    @Graded(points = 2, tags = {"extension", "pre-contact"})
    @DisplayName("preContact reports what its resource decided on A's write, and the value it holds at the end")
    void reportsTheResourcesVerdictAndFinalValue() {
        PreContact rejectsA = Fencing.preContact(() -> new RecordingResource(token -> token != 1));
        PreContact rejectsAll = Fencing.preContact(() -> new RecordingResource(token -> false));
        PreContact onlyA = Fencing.preContact(() -> new RecordingResource(token -> token == 1));

        assertThat(rejectsA)
                .as("with a resource that rejects token 1 (as a current-owner check would), A's write is rejected and B's "
                        + "\"b\" stored: the result must be (false, \"b\"), but it was %s", rejectsA)
                .isEqualTo(new PreContact(false, "b"));
        assertThat(rejectsAll)
                .as("with a resource that rejects every write, the result must be (false, null), but it was %s", rejectsAll)
                .isEqualTo(new PreContact(false, null));
        assertThat(onlyA)
                .as("with a resource that accepts only token 1, the result must be (true, \"a\"), but it was %s", onlyA)
                .isEqualTo(new PreContact(true, "a"));
    }
}
