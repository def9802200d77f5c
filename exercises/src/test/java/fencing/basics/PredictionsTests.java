package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Checks that each prediction has been answered in the expected form, and nothing more.
 *
 * <p>Whether an answer is right is for the hidden tests to say: decide by hand first, commit
 * {@code Predictions.java}, and only then implement {@link Resource}. The fields are read reflectively: they are
 * compile-time constants, and a direct read would be fixed when this test is compiled instead of reading your answer.
 */
@DisplayName("Predictions: decide by hand first; these checks only look at the form of your answers")
class PredictionsTests {

    @Test
    @DisplayName("The highest token remembered is answered with a token")
    void highestTokenRememberedIsAnswered() throws ReflectiveOperationException {
        long predicted = (long) constant("HIGHEST_TOKEN_REMEMBERED");

        assertThat(predicted)
                .as("Not answered yet: Predictions.HIGHEST_TOKEN_REMEMBERED must be a token (1 or more), but it still"
                        + " holds %d", predicted)
                .isPositive();
    }

    @Test
    @DisplayName("The fate of the old owner's write with token 7 is answered with accept or reject")
    void writeWithToken7IsAnswered() throws ReflectiveOperationException {
        assertAnswered("WRITE_WITH_TOKEN_7", "accept", "reject");
    }

    @Test
    @DisplayName("The fate of a later write with token 9 is answered with accept or reject")
    void writeWithToken9IsAnswered() throws ReflectiveOperationException {
        assertAnswered("WRITE_WITH_TOKEN_9", "accept", "reject");
    }

    @Test
    @DisplayName("Whether the expiry timer alone stops the old client is answered with yes or no")
    void expiryTimerQuestionIsAnswered() throws ReflectiveOperationException {
        assertAnswered("EXPIRY_TIMER_ALONE_STOPS_OLD_CLIENT", "yes", "no");
    }

    private static void assertAnswered(String name, String... allowed) throws ReflectiveOperationException {
        Object value = constant(name);
        String answer = value == null ? null : value.toString().trim().toLowerCase(Locale.ROOT);

        assertThat(answer)
                .as("Not answered yet: Predictions.%s must be %s, but it is \"%s\"", name,
                        String.join(" or ", Arrays.stream(allowed).map(word -> "\"" + word + "\"").toList()), value)
                .isIn((Object[]) allowed);
    }

    private static Object constant(String name) throws ReflectiveOperationException {
        return Predictions.class.getField(name).get(null);
    }
}
