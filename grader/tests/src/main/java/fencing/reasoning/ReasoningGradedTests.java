package fencing.reasoning;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The closed parts of {@code ANSWERS.md}, one graded test per question; the explanations go to a person.
 *
 * <p>The grader copies the submission's {@code ANSWERS.md} (or the template, when the submission has none) into the
 * tests' working directory and names it in {@value #ANSWERS_VARIABLE}.
 */
@DisplayName("ANSWERS.md: the closed answers")
class ReasoningGradedTests {

    /** The environment variable naming the copy of the submission's {@code ANSWERS.md}. */
    static final String ANSWERS_VARIABLE = "FENCING_ANSWERS";

    @Test
    @Graded(points = 1, tags = "reasoning")
    @DisplayName("Question 1: the statement that opens the transaction holding the comparison")
    void theStatementThatOpensTheComparingTransaction() throws IOException {
        grade(1);
    }

    @Test
    @Graded(points = 1, tags = "reasoning")
    @DisplayName("Question 2: a mark read outside the transaction can go down")
    void aMarkReadOutsideTheTransactionCanGoDown() throws IOException {
        grade(2);
    }

    @Test
    @Graded(points = 1, tags = "reasoning")
    @DisplayName("Question 3: the pre-contact write is accepted and nothing is lost")
    void thePreContactWriteIsAcceptedAndNothingIsLost() throws IOException {
        grade(3);
    }

    @Test
    @Graded(points = 1, tags = "reasoning")
    @DisplayName("Question 4: the lease ID is not a fencing token")
    void theLeaseIdIsNotAFencingToken() throws IOException {
        grade(4);
    }

    @Test
    @Graded(points = 1, tags = "reasoning")
    @DisplayName("Question 5: fencing does not remove the need for idempotency")
    void fencingDoesNotRemoveTheNeedForIdempotency() throws IOException {
        grade(5);
    }

    @Test
    @Graded(points = 1, tags = "reasoning")
    @DisplayName("Question 6: a mark kept in a field would have let the stale write in after the restart")
    void aMarkInAFieldLetsTheStaleWriteInAfterARestart() throws IOException {
        grade(6);
    }

    @Test
    @Graded(points = 1, tags = "reasoning")
    @DisplayName("Question 7: the lease runs out a TTL after the last keepalive")
    void theLeaseRunsOutATtlAfterTheLastKeepalive() throws IOException {
        grade(7);
    }

    @Test
    @Graded(points = 1, tags = "reasoning")
    @DisplayName("Question 8: checking the lease before writing does not replace fencing")
    void checkingTheLeaseDoesNotReplaceFencing() throws IOException {
        grade(8);
    }

    @Test
    @Graded(points = 1, tags = "reasoning")
    @DisplayName("Question 14: the fenced mode accepts no stale write in the chaos run")
    void theFencedModeAcceptsNoStaleWriteUnderChaos() throws IOException {
        grade(14);
    }

    @Test
    @Graded(points = 1, tags = "reasoning")
    @DisplayName("Question 15: after the failover, A's lease ran its full TTL again from the election")
    void afterTheFailoverTheLeaseRanItsTtlAgainFromTheElection() throws IOException {
        grade(15);
    }

    private static void grade(int number) throws IOException {
        AnswerKey.Question question = AnswerKey.question(number).orElseThrow();
        Answers.Answer answer = answers().question(number).orElse(null);

        assertThat(answer)
                .as("Not answered yet: ANSWERS.md has no section \"## %d. %s\"; keep the template's numbered headings",
                        number, question.title())
                .isNotNull();
        assertThat(answer.closed())
                .as("Not answered yet: question %d (%s) needs its \"Answer:\" line to hold %s", number,
                        question.title(), question.form())
                .isNotEmpty();
        assertThat(question.accepts(answer.closed()))
                .as("rule: %s; observed: question %d (%s) answers \"%s\"", question.rule(), number, question.title(),
                        answer.closed())
                .isTrue();
    }

    private static Answers answers() throws IOException {
        String location = System.getenv(ANSWERS_VARIABLE);
        assertThat(location)
                .as("the grader names the submission's ANSWERS.md in %s; it is not set", ANSWERS_VARIABLE)
                .isNotBlank();
        return Answers.parse(Files.readString(Path.of(location)));
    }
}
