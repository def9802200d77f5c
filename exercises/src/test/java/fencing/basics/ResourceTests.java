package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Resource: a fenced resource rejects writes with a token below its high-water mark")
class ResourceTests {

    @Test
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
    @DisplayName("An accepted write sets the value and raises the high-water mark to its token")
    void acceptedWriteSetsValueAndMark() {
        Resource resource = new Resource();

        boolean accepted = resource.write(3, "first");

        assertThat(accepted)
                .as("a write with token 3 on a new resource (mark 0) must be accepted: 3 >= 0")
                .isTrue();
        assertThat(resource.value())
                .as("after accepting the write (3, \"first\") the value must be \"first\"")
                .isEqualTo("first");
        assertThat(resource.highest())
                .as("after accepting a write with token 3 the high-water mark must be 3")
                .isEqualTo(3L);
    }

    @Test
    @DisplayName("A write with an older token is rejected and changes nothing")
    void rejectsTokenBelowHighWaterMark() {
        Resource resource = new Resource();
        resource.write(8, "new owner");

        boolean accepted = resource.write(7, "old owner");

        assertThat(accepted)
                .as("a write with token %d after token %d must be rejected: the resource has seen a newer owner", 7, 8)
                .isFalse();
        assertThat(resource.value())
                .as("a rejected write (token 7 after token 8) must leave the value \"new owner\" unchanged")
                .isEqualTo("new owner");
        assertThat(resource.highest())
                .as("a rejected write (token 7 after token 8) must leave the high-water mark at 8")
                .isEqualTo(8L);
    }

    @Test
    @DisplayName("A write with the same token as the high-water mark is accepted")
    void acceptsTokenEqualToHighWaterMark() {
        Resource resource = new Resource();
        resource.write(5, "first");

        boolean accepted = resource.write(5, "second");

        assertThat(accepted)
                .as("a second write with token %d after token %d must be accepted: it is the same owner (5 >= 5)", 5, 5)
                .isTrue();
        assertThat(resource.value())
                .as("after accepting (5, \"second\") the value must be \"second\"")
                .isEqualTo("second");
    }

    @Test
    @DisplayName("A write with a newer token is accepted and raises the high-water mark")
    void acceptsNewerToken() {
        Resource resource = new Resource();
        resource.write(8, "owner 8");

        boolean accepted = resource.write(9, "owner 9");

        assertThat(accepted)
                .as("a write with token %d after token %d must be accepted: it comes from a newer owner", 9, 8)
                .isTrue();
        assertThat(resource.highest())
                .as("after accepting token 9 the high-water mark must be 9")
                .isEqualTo(9L);
    }
}
