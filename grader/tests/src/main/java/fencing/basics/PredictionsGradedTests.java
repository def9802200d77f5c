package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Grades the answers in {@link Predictions}.
 *
 * <p>The fields are read reflectively: they are compile-time constants, so a direct read would be
 * fixed to the stub's placeholder when this class is compiled.
 */
@DisplayName("Predictions: the lesson's decide-by-hand-first questions")
class PredictionsGradedTests {

    @Test
    @Graded(points = 1, tags = "predictions")
    @DisplayName("The resource remembers token 8 after accepting the new owner's write")
    void highestTokenRemembered() throws ReflectiveOperationException {
        long answer = (long) constant("HIGHEST_TOKEN_REMEMBERED");

        assertThat(answer)
                .as("Not answered yet: Predictions.HIGHEST_TOKEN_REMEMBERED must be a token (1 or more), but it"
                        + " still holds %d", answer)
                .isPositive();
        assertThat(answer)
                .as("rule: an accepted write raises the high-water mark to its token; observed: you predicted"
                        + " Predictions.HIGHEST_TOKEN_REMEMBERED = %s after the resource accepted the new owner's write",
                        answer)
                .isEqualTo(8L);
    }

    @Test
    @Graded(points = 1, tags = "predictions")
    @DisplayName("The old owner's write with token 7 is rejected")
    void writeWithToken7() throws ReflectiveOperationException {
        String answer = word("WRITE_WITH_TOKEN_7", "accept", "reject");

        assertThat(answer)
                .as("rule: a write is accepted only if its token is at least the highest token seen; observed: you"
                        + " predicted \"%s\" for the old owner's write with token 7 after token 8", answer)
                .isEqualTo("reject");
    }

    @Test
    @Graded(points = 1, tags = "predictions")
    @DisplayName("A later write with token 9 is accepted")
    void writeWithToken9() throws ReflectiveOperationException {
        String answer = word("WRITE_WITH_TOKEN_9", "accept", "reject");

        assertThat(answer)
                .as("rule: a write is accepted only if its token is at least the highest token seen, and a rejected"
                        + " write leaves the mark at 8; observed: you predicted \"%s\" for a later write with token 9",
                        answer)
                .isEqualTo("accept");
    }

    @Test
    @Graded(points = 1, tags = "predictions")
    @DisplayName("The expiry timer alone does not stop the old client")
    void expiryTimerAloneDoesNotStopTheOldClient() throws ReflectiveOperationException {
        String answer = word("EXPIRY_TIMER_ALONE_STOPS_OLD_CLIENT", "yes", "no");

        assertThat(answer)
                .as("rule: a lease's expiry stops nothing by itself: a paused client wakes up still believing it"
                        + " holds the lock, so only the resource's token check stops its late write; observed: you"
                        + " predicted \"%s\"", answer)
                .isEqualTo("no");
    }

    private static Object constant(String name) throws ReflectiveOperationException {
        return Predictions.class.getField(name).get(null);
    }

    /** Reads an answer word, forgiving case and surrounding spaces, and requires one of {@code allowed}. */
    private static String word(String name, String... allowed) throws ReflectiveOperationException {
        Object value = constant(name);
        String answer = value == null ? null : value.toString().trim().toLowerCase(Locale.ROOT);
        assertThat(answer)
                .as("Not answered yet: Predictions.%s must be %s, but it is \"%s\"",
                        name, String.join(" or ", Arrays.stream(allowed).map(a -> "\"" + a + "\"").toList()), value)
                .isIn((Object[]) allowed);
        return answer;
    }
}
