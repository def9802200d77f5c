package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Checks that each prediction has been answered, and that it agrees with your own {@link Resource}.
 *
 * <p>The fields are read reflectively: they are compile-time constants, and a direct read would be
 * fixed when this test is compiled instead of reading your answer.
 */
@DisplayName("Predictions: decide by hand first, then check against your Resource")
class PredictionsTests {

    @Test
    @DisplayName("The highest token remembered is answered, and matches what your Resource remembers")
    void highestTokenRememberedMatchesResource() throws ReflectiveOperationException {
        long predicted = (long) constant("HIGHEST_TOKEN_REMEMBERED");
        assertThat(predicted)
                .as("Not answered yet: Predictions.HIGHEST_TOKEN_REMEMBERED must be a token (1 or more), but it still"
                        + " holds %d", predicted)
                .isPositive();

        Resource resource = new Resource();
        resource.write(8, "new owner");
        resource.write(7, "old owner");
        assertThat(predicted)
                .as("you predicted the resource remembers %d after accepting token 8 and then seeing token 7,"
                        + " but your Resource remembers %d", predicted, resource.highest())
                .isEqualTo(resource.highest());
    }

    @Test
    @DisplayName("The fate of the old owner's write with token 7 is answered, and matches your Resource")
    void writeWithToken7MatchesResource() throws ReflectiveOperationException {
        String predicted = (String) constant("WRITE_WITH_TOKEN_7");
        assertThat(predicted)
                .as("Not answered yet: Predictions.WRITE_WITH_TOKEN_7 must be \"accept\" or \"reject\","
                        + " but it is \"%s\"", predicted)
                .isIn("accept", "reject");

        Resource resource = new Resource();
        resource.write(8, "new owner");
        String actual = resource.write(7, "old owner") ? "accept" : "reject";
        assertThat(predicted)
                .as("you predicted \"%s\" for a write with token 7 after token 8, but your Resource did \"%s\"",
                        predicted, actual)
                .isEqualTo(actual);
    }

    @Test
    @DisplayName("The fate of a later write with token 9 is answered, and matches your Resource")
    void writeWithToken9MatchesResource() throws ReflectiveOperationException {
        String predicted = (String) constant("WRITE_WITH_TOKEN_9");
        assertThat(predicted)
                .as("Not answered yet: Predictions.WRITE_WITH_TOKEN_9 must be \"accept\" or \"reject\","
                        + " but it is \"%s\"", predicted)
                .isIn("accept", "reject");

        Resource resource = new Resource();
        resource.write(8, "new owner");
        resource.write(7, "old owner");
        String actual = resource.write(9, "next owner") ? "accept" : "reject";
        assertThat(predicted)
                .as("you predicted \"%s\" for a write with token 9 after tokens 8 and 7, but your Resource did \"%s\"",
                        predicted, actual)
                .isEqualTo(actual);
    }

    @Test
    @DisplayName("Whether the expiry timer alone stops the old client is answered")
    void expiryTimerQuestionIsAnswered() throws ReflectiveOperationException {
        String predicted = (String) constant("EXPIRY_TIMER_ALONE_STOPS_OLD_CLIENT");
        assertThat(predicted)
                .as("Not answered yet: Predictions.EXPIRY_TIMER_ALONE_STOPS_OLD_CLIENT must be \"yes\" or \"no\","
                        + " but it is \"%s\"", predicted)
                .isIn("yes", "no");
    }

    private static Object constant(String name) throws ReflectiveOperationException {
        return Predictions.class.getField(name).get(null);
    }
}
