package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Resource: accept only if token >= highest(); a rejected write changes nothing")
class ResourceGradedTests {

    @Test
    @Graded(points = 1, tags = "stale-rejection")
    @DisplayName("A new resource has no value and a high-water mark of 0")
    void startsWithNoValueAndMarkZero() {
        Resource resource = new Resource();

        assertThat(resource.value())
                .as("a resource that has accepted no write yet has no value (null)")
                .isNull();
        assertThat(resource.highest())
                .as("a resource that has accepted no write yet has a high-water mark of 0")
                .isZero();
    }

    @Test
    @Graded(points = 2, tags = "stale-rejection")
    @DisplayName("An accepted write sets the value and raises the high-water mark to its token")
    void acceptedWriteSetsValueAndRaisesMark() {
        Resource resource = new Resource();

        boolean first = resource.write(5, "five");
        long markAfterFirst = resource.highest();
        String valueAfterFirst = resource.value();
        boolean second = resource.write(9, "nine");

        assertThat(first)
                .as("a write with token 5 on a new resource (mark 0) must be accepted: 5 >= 0")
                .isTrue();
        assertThat(valueAfterFirst)
                .as("after accepting (5, \"five\") the value must be \"five\"")
                .isEqualTo("five");
        assertThat(markAfterFirst)
                .as("an accepted write raises the high-water mark to its token: after accepting token 5 it must"
                        + " be 5, but it was %d", markAfterFirst)
                .isEqualTo(5L);
        assertThat(second)
                .as("a write with token 9 after token 5 must be accepted: it comes from a newer owner")
                .isTrue();
        assertThat(resource.highest())
                .as("after accepting tokens 5 and then 9 the high-water mark must be 9, but it was %d",
                        resource.highest())
                .isEqualTo(9L);
        assertThat(resource.value())
                .as("after accepting (5, \"five\") and then (9, \"nine\") the value must be \"nine\"")
                .isEqualTo("nine");
    }

    @Test
    @Graded(points = 2, tags = "stale-rejection")
    @DisplayName("Once a token is accepted, every older token is rejected")
    void acceptedTokenFencesOffOlderOnes() {
        Resource resource = new Resource();
        resource.write(5, "owner 5");

        boolean older = resource.write(3, "owner 3");

        assertThat(older)
                .as("a write with token %d after token %d was accepted must be rejected: the resource has seen a"
                        + " newer owner (if the mark stayed at 0 after accepting 5, token 3 would slip through)", 3, 5)
                .isFalse();
        assertThat(resource.value())
                .as("after (5, \"owner 5\") and the stale (3, \"owner 3\") the value must still be \"owner 5\"")
                .isEqualTo("owner 5");
    }

    @Test
    @Graded(points = 2, tags = "stale-rejection")
    @DisplayName("A write with a token below the high-water mark is rejected")
    void rejectsTokenBelowHighWaterMark() {
        Resource resource = new Resource();
        resource.write(8, "new owner");

        boolean accepted = resource.write(7, "old owner");

        assertThat(accepted)
                .as("a write with token %d after token %d must be rejected: the resource has seen a newer owner", 7, 8)
                .isFalse();
    }

    @Test
    @Graded(points = 2, tags = "stale-rejection")
    @DisplayName("A rejected write leaves the value unchanged")
    void rejectedWriteKeepsTheValue() {
        Resource resource = new Resource();
        resource.write(8, "new owner");

        resource.write(7, "old owner");
        String afterOne = resource.value();
        resource.write(1, "older owner");

        assertThat(afterOne)
                .as("a rejected write (token 7 after token 8) changes nothing: the value must stay \"new owner\","
                        + " but it was \"%s\"", afterOne)
                .isEqualTo("new owner");
        assertThat(resource.value())
                .as("rejected writes (tokens 7 and 1 after token 8) change nothing: the value must stay"
                        + " \"new owner\", but it was \"%s\"", resource.value())
                .isEqualTo("new owner");
    }

    @Test
    @Graded(points = 2, tags = "stale-rejection")
    @DisplayName("A rejected write leaves the high-water mark where it was")
    void rejectedWriteKeepsTheMark() {
        Resource resource = new Resource();
        resource.write(10, "owner 10");

        resource.write(3, "owner 3");
        long markAfterRejection = resource.highest();
        boolean later = resource.write(5, "owner 5");

        assertThat(markAfterRejection)
                .as("a rejected write (token 3 after token 10) changes nothing: the high-water mark must stay 10,"
                        + " but it was %d", markAfterRejection)
                .isEqualTo(10L);
        assertThat(later)
                .as("after token 10 was accepted and token 3 rejected, a write with token 5 is still stale and"
                        + " must be rejected: a rejection must not lower the mark")
                .isFalse();
        assertThat(resource.value())
                .as("after (10, \"owner 10\") and the stale writes with tokens 3 and 5 the value must still be"
                        + " \"owner 10\", but it was \"%s\"", resource.value())
                .isEqualTo("owner 10");
    }

    @Test
    @Graded(points = 2, tags = "equal-token-acceptance")
    @DisplayName("A write with a token equal to the high-water mark is accepted")
    void acceptsTokenEqualToHighWaterMark() {
        Resource resource = new Resource();
        resource.write(5, "first");

        boolean accepted = resource.write(5, "second");

        assertThat(accepted)
                .as("a second write with token %d after token %d must be accepted: it is the same, current owner"
                        + " (5 >= 5)", 5, 5)
                .isTrue();
        assertThat(resource.value())
                .as("after accepting (5, \"first\") and (5, \"second\") the value must be \"second\", but it was"
                        + " \"%s\"", resource.value())
                .isEqualTo("second");
        assertThat(resource.highest())
                .as("after accepting token 5 twice the high-water mark must be 5, but it was %d", resource.highest())
                .isEqualTo(5L);
    }

    @Test
    @Graded(points = 1, tags = "equal-token-acceptance")
    @DisplayName("A new resource accepts token 0, which equals its high-water mark of 0")
    void newResourceAcceptsTokenZero() {
        Resource resource = new Resource();

        boolean accepted = resource.write(0, "zero");

        assertThat(accepted)
                .as("a write with token 0 on a new resource (mark 0) must be accepted: 0 >= 0")
                .isTrue();
        assertThat(resource.value())
                .as("after accepting (0, \"zero\") the value must be \"zero\"")
                .isEqualTo("zero");
    }

    @Test
    @Graded(points = 1, tags = "stale-rejection")
    @DisplayName("Tokens are compared as whole longs, even very large ones")
    void comparesLargeTokens() {
        Resource resource = new Resource();
        long big = Long.MAX_VALUE - 1;
        long bigger = Long.MAX_VALUE;

        boolean first = resource.write(bigger, "newest");
        boolean second = resource.write(big, "older");

        assertThat(first)
                .as("a write with token %d on a new resource must be accepted", bigger)
                .isTrue();
        assertThat(second)
                .as("a write with token %d after token %d must be rejected: the resource has seen a newer owner",
                        big, bigger)
                .isFalse();
        assertThat(resource.highest())
                .as("after accepting token %d the high-water mark must be %d", bigger, bigger)
                .isEqualTo(bigger);
    }

    @Test
    @Graded(points = 1, tags = "stale-rejection")
    @DisplayName("Each resource keeps its own high-water mark")
    void eachResourceKeepsItsOwnMark() {
        Resource first = new Resource();
        Resource second = new Resource();
        first.write(8, "first resource");

        boolean accepted = second.write(1, "second resource");

        assertThat(accepted)
                .as("token 8 was written to another resource; this new resource has seen nothing, so token 1"
                        + " must be accepted")
                .isTrue();
        assertThat(second.highest())
                .as("a new resource's mark after accepting token 1 must be 1, whatever other resources saw")
                .isEqualTo(1L);
        assertThat(first.value())
                .as("a write to one resource must not change another: the first resource must still hold"
                        + " \"first resource\"")
                .isEqualTo("first resource");
    }

    @Test
    @Graded(points = 2, tags = {"stale-rejection", "equal-token-acceptance"})
    @DisplayName("Over a long mix of older, equal and newer tokens the resource follows the rule every time")
    void followsTheRuleOverALongSequence() {
        Resource resource = new Resource();
        Random random = new Random(7);
        long expectedMark = 0;
        String expectedValue = null;
        List<String> history = new ArrayList<>();

        for (int step = 1; step <= 400; step++) {
            long token = Math.max(0, expectedMark + random.nextInt(7) - 3);
            String value = "w" + step;
            long markBefore = expectedMark;
            boolean shouldAccept = token >= markBefore;

            boolean accepted = resource.write(token, value);
            history.add("(" + token + ", " + value + ")" + (shouldAccept ? "" : " stale"));
            if (shouldAccept) {
                expectedMark = token;
                expectedValue = value;
            }

            assertThat(accepted)
                    .as("write %d with token %d when the highest accepted token is %d must be %s;"
                            + " the last writes were %s", step, token, markBefore,
                            shouldAccept ? "accepted (token >= highest)" : "rejected (token < highest)",
                            tail(history))
                    .isEqualTo(shouldAccept);
            assertThat(resource.highest())
                    .as("after write %d the high-water mark must be %d (the highest accepted token); the last"
                            + " writes were %s", step, expectedMark, tail(history))
                    .isEqualTo(expectedMark);
            assertThat(resource.value())
                    .as("after write %d the value must be the last accepted one, \"%s\"; the last writes were %s",
                            step, expectedValue, tail(history))
                    .isEqualTo(expectedValue);
        }
    }

    private static List<String> tail(List<String> history) {
        return history.subList(Math.max(0, history.size() - 5), history.size());
    }
}
