package fencing.grader.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.KitLocations;
import fencing.grader.StudentFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A stub's failure says which file it stands for and why, however a test reports it. */
class StubsTests {

    private static final String SET_ASIDE = "did not compile: src/main/java/fencing/sink/FencedSink.java:45: ';' expected";
    private static final String STUB_SAYS = "; graded as the kit's stub: FencedSink.write — in ONE BEGIN IMMEDIATE transaction";

    @TempDir
    Path dir;

    @Test
    @DisplayName("a stub's own failure, for a file set aside, begins with why, without the exception's name")
    void aSetAsideStubsFailureBeginsWithWhy() {
        String message = UnsupportedOperationException.class.getName() + ": " + SET_ASIDE + STUB_SAYS;

        assertThat(Stubs.named(message, "")).as("the message of a set-aside FencedSink's own failure")
                .isEqualTo(SET_ASIDE + STUB_SAYS);
    }

    @Test
    @DisplayName("a failure that wraps a set-aside stub's failure begins with why the stub is there, found in its trace")
    void aWrappedSetAsideStubsFailureBeginsWithWhy() {
        String trace = "org.opentest4j.AssertionFailedError: expected 35 but was 0\n\tat fencing.sink.SinkFencingTests\n"
                + "Caused by: java.lang.UnsupportedOperationException: " + SET_ASIDE + STUB_SAYS + "\n\tat fencing.sink.FencedSink";

        assertThat(Stubs.named("expected 35 but was 0", trace)).as("the message of a failure whose cause is a set-aside stub's")
                .isEqualTo(SET_ASIDE + ": expected 35 but was 0");
    }

    @Test
    @DisplayName("a failure that wraps a missing file's stub still begins with 'not submitted' and the file")
    void aWrappedMissingStubsFailureStillNamesTheFile() {
        String trace = "Caused by: java.lang.UnsupportedOperationException: not submitted: fencing/sink/FencedSink.java,"
                + " graded as the kit's stub: FencedSink.write — in ONE BEGIN IMMEDIATE transaction";

        assertThat(Stubs.named("expected 35 but was 0", trace)).as("the message of a failure whose cause is a missing file's stub")
                .isEqualTo("not submitted: fencing/sink/FencedSink.java: expected 35 but was 0");
    }

    @Test
    @DisplayName("a reason quoting a quote, a backslash, a Unicode escape or a line break stays inside the stub's string literal")
    void aReasonCannotEndTheLiteral() {
        String reason = "did not compile: Quorum.java:3: illegal \"\\u0022\" \n here";

        assertThat(Stubs.literal(reason)).as("the reason %s as the inside of a Java string literal", reason)
                .isEqualTo("did not compile: Quorum.java:3: illegal \\\"\\\\u0022\\\" \\012 here");
    }

    @Test
    @DisplayName("a missing Predictions.java is filled with the kit's stub as it is: placeholders, and no failure to name the file")
    void aStubThatThrowsNothingIsWrittenAsItIs() throws IOException {
        String predictions = "fencing/basics/Predictions.java";

        java.util.Optional<String> refused = Stubs.fill(dir, List.of(predictions));

        assertThat(refused).as("why a submission without Predictions.java could not be graded").isEmpty();
        assertThat(dir.resolve(predictions)).as("the stub written for a missing Predictions.java")
                .hasSameTextualContentAs(KitLocations.exercises().resolve(StudentFiles.SOURCE_ROOT).resolve(predictions));
    }
}
