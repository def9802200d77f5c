package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.handout.Handout;
import fencing.selfcheck.SelfCheckLimit;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The handout's self-check: every public test has a limit that names the student's method where it was reached, and a
 * course without Part 4 passes it with {@code ./kit check --no-extensions}.
 */
class HandoutSelfCheckTests {

    private static final String SETTINGS = "src/test/resources/junit-platform.properties";
    private static final String EXTENSIONS = "src/test/resources/META-INF/services/org.junit.jupiter.api.extension.Extension";

    /** A part of the handout README's list of parts: {@code - **Part N, ...} up to the next part or the list's end. */
    private static final Pattern PART = Pattern.compile("(?m)^- \\*\\*Part (\\d)(.*(?:\\n  .*)*)");
    private static final Pattern STUDENT_FILE = Pattern.compile("`" + StudentFiles.SOURCE_ROOT + "/(fencing/[\\w/]+\\.java)`");

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

    @Test
    @DisplayName("the handout's README names each student file once, in its part, and Part 4's are the extension's")
    void readmePutsEachStudentFileInItsPart() throws IOException {
        String readme = Files.readString(write().resolve("README.md"));
        Map<String, List<String>> parts = new LinkedHashMap<>();
        Matcher part = PART.matcher(readme);
        while (part.find()) {
            List<String> files = new ArrayList<>();
            STUDENT_FILE.matcher(part.group(2)).results().forEach(file -> files.add(file.group(1)));
            parts.put(part.group(1), files);
        }
        List<String> core = new ArrayList<>(parts.getOrDefault("1", List.of()));
        core.addAll(parts.getOrDefault("2", List.of()));

        assertThat(parts.keySet()).as("the parts the handout's README lists").containsExactly("1", "2", "3", "4");
        assertThat(core).as("the files of Parts 1 and 2, against the core's").containsExactlyInAnyOrderElementsOf(
                StudentFiles.required(false));
        assertThat(parts.get("3")).as("the files of Part 3, the lab, which runs Part 2's").isEmpty();
        assertThat(parts.get("4")).as("the files of Part 4, against the extension's")
                .containsExactlyInAnyOrderElementsOf(StudentFiles.EXTENSION_PATHS);
        for (String file : StudentFiles.PATHS) {
            assertThat(STUDENT_FILE.matcher(readme).results().filter(named -> named.group(1).equals(file)).count())
                    .as("how often the handout's README names %s", file).isEqualTo(1);
        }
    }

    @Test
    @DisplayName("with Parts 1 to 3 from the solutions and Part 4 left as stubs, ./kit check --no-extensions passes in the"
            + " handout, leaving out Part 4's tests")
    void coreAlonePassesTheCheckWithoutTheExtension() throws Exception {
        Path handout = write();
        for (String file : StudentFiles.required(false)) {
            Files.copy(KitLocations.solutions().resolve(StudentFiles.SOURCE_ROOT).resolve(file),
                    handout.resolve(StudentFiles.SOURCE_ROOT).resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }

        MavenBuild build = MavenBuild.kitCheck(handout, dir.resolve("core.log"), "--no-extensions");

        assertThat(build.output()).as("the Maven command ./kit check --no-extensions prints").contains("-DexcludedGroups=extension");
        assertThat(build.cases()).as("tests run by ./kit check --no-extensions; output:%n%s", build.tail()).isNotEmpty()
                .noneMatch(MavenBuild.Case::skipped);
        // Surefire names a report's cases by the class's display name, and the report's file by the class.
        for (String file : StudentFiles.EXTENSION_PATHS) {
            String tests = file.substring(0, file.length() - ".java".length()).replace('/', '.') + "Tests";
            assertThat(handout.resolve("target/surefire-reports/TEST-" + tests + ".xml"))
                    .as("the report of %s, the tests of Part 4's %s, after ./kit check --no-extensions", tests, file)
                    .doesNotExist();
        }
        assertThat(build.cases()).as("the test of Fencing.preContact, Part 4's, among those ./kit check --no-extensions ran")
                .extracting(MavenBuild.Case::name).isNotEmpty().noneMatch(name -> name.contains("preContact"));
        assertThat(build.failures()).as("tests that failed on Parts 1 to 3 from the solutions, Part 4 left as stubs").isEmpty();
        assertThat(build.exitCode()).as("exit code of ./kit check --no-extensions; output:%n%s", build.tail()).isZero();
    }

    private Path write() throws IOException {
        Path handout = dir.resolve("handout");
        new Handout(KitLocations.root()).write(handout);
        return handout;
    }
}
