package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencing.support.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The handout students start from: nothing hidden in it, it builds on its own, and its tests tell stubs from solutions. */
class HandoutTests {

    private static final Pattern HIDDEN_MARKERS = Pattern.compile("@Graded\\b|fencing\\.grader\\b");

    @TempDir
    Path dir;

    @Test
    @DisplayName("the handout holds no solution, no hidden test and nothing of the grader")
    void holdsNoSolutionNoHiddenTestNoGrader() throws IOException {
        Path handout = write(dir.resolve("handout"));

        assertThat(leaks(handout)).as("what the handout gives away (solutions, hidden tests, the grader)").isEmpty();
    }

    @Test
    @DisplayName("the leak check finds a solution file, a hidden test class and a grader reference planted in a handout")
    void leakCheckFindsWhatIsPlanted() throws IOException {
        Path handout = write(dir.resolve("handout"));
        Path resource = handout.resolve("src/main/java/fencing/basics/Resource.java");
        Files.copy(KitLocations.solutions().resolve("src/main/java/fencing/basics/Resource.java"), resource,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(handout.resolve("src/main/java/fencing/basics/Planted.java"),
                "package fencing.basics;\nimport fencing.grading.Graded;\nclass Planted {\n    @Graded(points = 1, tags = \"quorum\")\n    void test() {\n    }\n}\n");

        assertThat(leaks(handout)).as("the leak check on a handout with a solution and a graded test planted in it")
                .anyMatch(leak -> leak.contains("Resource.java") && leak.contains("solution"))
                .anyMatch(leak -> leak.contains("Planted.java") && leak.contains("hidden-test marker"));
    }

    @Test
    @DisplayName("the handout has the provided code, the stubs and the public tests exactly as in exercises/, and the wrapper")
    void copiesExercisesUnchanged() throws IOException {
        Path handout = write(dir.resolve("handout"));
        Path exercises = KitLocations.exercises();

        for (Path file : files(exercises.resolve("src"))) {
            Path copy = handout.resolve("src").resolve(exercises.resolve("src").relativize(file).toString());
            assertThat(copy).as("the handout's copy of exercises/src/%s", exercises.resolve("src").relativize(file))
                    .exists().hasSameBinaryContentAs(file);
        }
        assertThat(handout.resolve("mvnw")).as("the Maven wrapper, runnable").isExecutable();
        assertThat(handout.resolve(".mvn/wrapper/maven-wrapper.properties")).exists();
        assertThat(handout.resolve("README.md")).content().contains("./mvnw test").contains(StudentFiles.PATHS.get(0));
        if (Files.exists(exercises.resolve("ANSWERS.md"))) {
            assertThat(handout.resolve("ANSWERS.md")).hasSameTextualContentAs(exercises.resolve("ANSWERS.md"));
        }
    }

    @Test
    @DisplayName("the handout's pom has no parent and the kit's versions, Java release 17 and enforcer rules")
    void pomStandsAlone() throws IOException {
        String pom = Files.readString(write(dir.resolve("handout")).resolve("pom.xml"));
        String parent = Files.readString(KitLocations.root().resolve("pom.xml"));

        assertThat(pom).as("the handout's pom.xml").doesNotContain("<parent>").doesNotContain("<module>")
                .contains("<maven.compiler.release>17</maven.compiler.release>")
                .contains("maven-enforcer-plugin").contains("<requireJavaVersion>");
        Pattern version = Pattern.compile("<([a-z.-]+\\.version)>([^<]+)</");
        var matcher = version.matcher(parent);
        int checked = 0;
        while (matcher.find()) {
            assertThat(pom).as("the handout keeps the kit's %s", matcher.group(1)).contains(matcher.group());
            checked++;
        }
        assertThat(checked).as("version properties in the kit's parent pom").isPositive();
    }

    @Test
    @DisplayName("writing a handout over a directory that holds anything is refused and changes nothing")
    void refusesNonEmptyDirectory() throws IOException {
        Path out = Files.createDirectories(dir.resolve("taken"));
        Files.writeString(out.resolve("notes.txt"), "mine");

        assertThatThrownBy(() -> new Handout(KitLocations.root()).write(out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("missing or empty");
        try (Stream<Path> left = Files.list(out)) {
            assertThat(left).as("what is left in the refused directory").containsExactly(out.resolve("notes.txt"));
        }
    }

    @Test
    @DisplayName("in the handout, mvn test fails on the stubs, and every failure says what is not implemented or answered yet")
    void stubsFailOnlyAsNotImplemented() throws Exception {
        Path handout = write(dir.resolve("handout"));

        MavenBuild build = MavenBuild.test(handout, dir.resolve("stubs.log"));

        assertThat(build.exitCode()).as("exit code of mvn test on the stubs; output:%n%s", build.tail()).isNotZero();
        assertThat(build.cases()).as("tests run in the handout; output:%n%s", build.tail()).isNotEmpty();
        assertThat(build.cases()).as("tests skipped in the handout (etcd is given to them)")
                .noneMatch(MavenBuild.Case::skipped);
        assertThat(build.failures()).as("tests failed on the stubs").isNotEmpty().allSatisfy(failure ->
                assertThat(failure.message()).as("why %s failed on the stubs", failure.name()).matches(ReferenceGradesTests.NOT_DONE_YET));
    }

    @Test
    @DisplayName("with the solution files copied in, mvn test passes in the handout")
    void passesWithTheSolutions() throws Exception {
        Path handout = write(dir.resolve("handout"));
        FileTrees.copy(KitLocations.solutions().resolve(StudentFiles.SOURCE_ROOT),
                handout.resolve(StudentFiles.SOURCE_ROOT));

        MavenBuild build = MavenBuild.test(handout, dir.resolve("solutions.log"));

        assertThat(build.cases()).as("tests run in the handout; output:%n%s", build.tail()).isNotEmpty();
        assertThat(build.failures()).as("tests failed on the solutions").isEmpty();
        assertThat(build.exitCode()).as("exit code of mvn test on the solutions; output:%n%s", build.tail()).isZero();
    }

    private static Path write(Path out) throws IOException {
        new Handout(KitLocations.root()).write(out);
        return out;
    }

    /** Lists what a handout gives away: solution lines, hidden test class names, grader references, kit-only folders. */
    static List<String> leaks(Path handout) throws IOException {
        Path kit = KitLocations.root();
        Set<String> provided = new HashSet<>();
        for (Path root : List.of(kit.resolve("exercises/src"), kit.resolve("labs/src/main"))) {
            for (Path file : files(root)) {
                text(file).ifPresent(text -> text.lines().map(String::strip).forEach(provided::add));
            }
        }
        Set<String> solutionOnly = new HashSet<>();
        for (Path file : files(kit.resolve("solutions/src"))) {
            text(file).ifPresent(text -> text.lines().map(String::strip)
                    .filter(line -> line.length() >= 12 && !provided.contains(line))
                    .forEach(solutionOnly::add));
        }
        if (solutionOnly.isEmpty()) {
            throw new IllegalStateException("found no line that only the solutions have: the leak check would be blind");
        }
        List<Pattern> hiddenClasses = new ArrayList<>();
        for (Path file : files(kit.resolve("grader/tests/src/main/java"))) {
            String name = file.getFileName().toString();
            if (name.endsWith("Tests.java")) {
                hiddenClasses.add(Pattern.compile("\\b" + Pattern.quote(name.substring(0, name.length() - 5)) + "\\b"));
            }
        }
        List<String> leaks = new ArrayList<>();
        for (Path file : files(handout)) {
            String relative = handout.relativize(file).toString();
            for (String kitOnly : List.of("solutions", "grader", "catalog")) {
                if (List.of(relative.split("/")).contains(kitOnly)) {
                    leaks.add(relative + ": a kit-only folder (" + kitOnly + ")");
                }
            }
            var text = text(file);
            if (text.isEmpty()) {
                continue;
            }
            text.get().lines().map(String::strip).filter(solutionOnly::contains).findFirst()
                    .ifPresent(line -> leaks.add(relative + ": a line of a solution file: " + line));
            if (HIDDEN_MARKERS.matcher(text.get()).find()) {
                leaks.add(relative + ": a hidden-test marker (@Graded or fencing.grader)");
            }
            hiddenClasses.stream().filter(name -> name.matcher(text.get()).find()).findFirst()
                    .ifPresent(name -> leaks.add(relative + ": the name of a hidden test class, " + name.pattern()));
        }
        return leaks;
    }

    private static java.util.Optional<String> text(Path file) throws IOException {
        try {
            return java.util.Optional.of(StandardCharsets.UTF_8.newDecoder().decode(
                    java.nio.ByteBuffer.wrap(Files.readAllBytes(file))).toString());
        } catch (CharacterCodingException binary) {
            return java.util.Optional.empty();
        }
    }

    private static List<Path> files(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(Files::isRegularFile).filter(path -> !root.relativize(path).toString().contains("target/"))
                    .sorted().toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
