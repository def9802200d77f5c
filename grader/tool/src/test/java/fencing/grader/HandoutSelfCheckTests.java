package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.handout.Handout;
import fencing.selfcheck.SelfCheckLimit;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The handout's self-check: every public test has a limit that names the student's method where it was reached. */
class HandoutSelfCheckTests {

    private static final String SETTINGS = "src/test/resources/junit-platform.properties";
    private static final String EXTENSIONS = "src/test/resources/META-INF/services/org.junit.jupiter.api.extension.Extension";

    @TempDir
    Path dir;

    @Test
    @DisplayName("the handout has the self-check's limit, on a thread of its own for each test, and the extension that"
            + " names the student's method, which its README states")
    void handoutHasTheSelfChecksLimit() throws IOException {
        Path handout = write();
        Properties settings = new Properties();
        try (Reader in = Files.newBufferedReader(handout.resolve(SETTINGS), StandardCharsets.UTF_8)) {
            settings.load(in);
        }

        assertThat(settings).as("the handout's %s", SETTINGS)
                .containsEntry("junit.jupiter.execution.timeout.default", "60 s")
                .containsEntry("junit.jupiter.execution.timeout.thread.mode.default", "SEPARATE_THREAD")
                .containsEntry("junit.jupiter.extensions.autodetection.enabled", "true");
        assertThat(Files.readString(handout.resolve(EXTENSIONS)).strip()).as("the extensions the handout's tests detect")
                .isEqualTo(SelfCheckLimit.class.getName());
        assertThat(handout.resolve("src/test/java/" + SelfCheckLimit.class.getName().replace('.', '/') + ".java"))
                .as("the extension's source in the handout").exists();
        assertThat(handout.resolve("README.md")).as("the handout's README, on the limit the settings give")
                .content().contains("Each test has a limit of 60 seconds");
    }

    @Test
    @DisplayName("the self-check's extension counts as the student's code exactly the files the grader takes")
    void extensionKnowsTheGradersStudentFiles() {
        assertThat(SelfCheckLimit.STUDENT_FILES).as("SelfCheckLimit.STUDENT_FILES, against StudentFiles.PATHS")
                .containsExactlyInAnyOrderElementsOf(StudentFiles.PATHS);
    }

    private Path write() throws IOException {
        Path handout = dir.resolve("handout");
        new Handout(KitLocations.root()).write(handout);
        return handout;
    }
}
