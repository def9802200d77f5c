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

    @TempDir
    Path dir;

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
