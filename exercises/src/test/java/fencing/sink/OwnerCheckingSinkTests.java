package fencing.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("extension")
@DisplayName("OwnerCheckingSink (Part 4): only the current owner's writes are accepted")
class OwnerCheckingSinkTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("The current owner's write is accepted")
    void acceptsTheCurrentOwnersWrite() {
        OwnerCheckingSink sink = new OwnerCheckingSink(ConnectionSource.sqlite(dir.resolve("sink.db")), token -> token == 5);

        WriteResult result = sink.write(5, "owner 5");

        assertThat(result)
                .as("token 5 is the current holder's and not below the mark 0, so the write must be accepted")
                .isEqualTo(new WriteResult(true, 5, "owner 5"));
    }

    @Test
    @DisplayName("A token that is not the current holder's is rejected, even above the mark")
    void rejectsATokenThatIsNotCurrent() {
        OwnerCheckingSink sink = new OwnerCheckingSink(ConnectionSource.sqlite(dir.resolve("sink.db")), token -> token == 7);
        sink.write(7, "owner 7");

        WriteResult late = sink.write(3, "late A");
        WriteResult forged = sink.write(1_000_000_000_000L, "forged");

        assertThat(late.accepted())
                .as("token 3 is below the mark 7 and not the current holder's: the write must be rejected")
                .isFalse();
        assertThat(forged.accepted())
                .as("token 10^12 was never granted (the holder's is 7): a forged token must be rejected")
                .isFalse();
        assertThat(sink.read())
                .as("rejected writes change nothing: the sink must still hold \"owner 7\" with mark 7")
                .isEqualTo(new SinkState("owner 7", 7));
    }
}
