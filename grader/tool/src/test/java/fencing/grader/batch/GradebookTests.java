package fencing.grader.batch;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.files.BatchFolder;
import fencing.grader.files.GradebookRow;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gradebook's Markdown rows, made from its CSV rows alone. */
class GradebookTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("the rows of a gradebook.csv written before, written again, give the same gradebook.csv and gradebook.md")
    void anEarlierGradebookIsWrittenAgainTheSame() throws IOException {
        Path before = Files.createDirectories(dir.resolve("before"));
        for (String name : List.of(BatchFolder.GRADEBOOK_CSV, BatchFolder.GRADEBOOK_MD)) {
            try (InputStream in = GradebookRow.class.getResourceAsStream("before-codec/" + name)) {
                assertThat(in).as("the test resource %s", name).isNotNull();
                Files.write(before.resolve(name), in.readAllBytes());
            }
        }
        Path again = dir.resolve("again");

        Gradebook.write(GradebookRow.read(before.resolve(BatchFolder.GRADEBOOK_CSV)), List.of(), again);

        for (String name : List.of(BatchFolder.GRADEBOOK_CSV, BatchFolder.GRADEBOOK_MD)) {
            assertThat(Files.readString(again.resolve(name), StandardCharsets.UTF_8)).as("%s written again", name)
                    .isEqualTo(Files.readString(before.resolve(name), StandardCharsets.UTF_8));
        }
    }
}
