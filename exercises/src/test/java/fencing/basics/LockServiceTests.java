package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("LockService: every grant gets a new fencing token")
class LockServiceTests {

    @Test
    @DisplayName("The first grant of a new lock service gets token 1")
    void firstGrantGetsTokenOne() {
        long token = new LockService().acquire("A");

        assertThat(token)
                .as("the first acquire on a new lock service must return token 1, but it returned %d", token)
                .isEqualTo(1L);
    }

    @Test
    @DisplayName("Each grant gets the next token, whoever asks")
    void everyGrantGetsTheNextTokenWhoeverAsks() {
        LockService locks = new LockService();

        long first = locks.acquire("A");
        long second = locks.acquire("B");
        long third = locks.acquire("A");

        assertThat(List.of(first, second, third))
                .as("A, then B, then A again acquire: every grant is a new lease, so the tokens must be 1, 2, 3,"
                        + " but they were %d, %d, %d", first, second, third)
                .containsExactly(1L, 2L, 3L);
    }
}
