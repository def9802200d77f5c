package fencing.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("PlainSink: without fencing, a paused owner's late write overwrites the new owner's data")
class PlainSinkTests {

    @Test
    @DisplayName("The late write that a PlainSink stores is the one a FencedSink rejects")
    void storesTheLateWriteThatAFencedSinkRejects(@TempDir Path dir) {
        Sink plain = new PlainSink(ConnectionSource.sqlite(dir.resolve("plain.db")));
        Sink fenced = new FencedSink(ConnectionSource.sqlite(dir.resolve("fenced.db")));
        for (Sink sink : new Sink[] {plain, fenced}) {
            sink.write(34, "written by the new owner");
            sink.write(33, "written late by the paused old owner");
        }

        assertThat(plain.read().value())
                .as("a PlainSink never looks at the token, so the late write with token 33 (after 34) overwrites the data")
                .isEqualTo("written late by the paused old owner");
        assertThat(fenced.read().value())
                .as("a FencedSink must reject the late write with token 33 (after 34) and keep the new owner's value")
                .isEqualTo("written by the new owner");
    }
}
