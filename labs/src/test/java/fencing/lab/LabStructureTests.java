package fencing.lab;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** How the lab is built: packages without cycles, and classes a maintainer can read whole. */
class LabStructureTests {

    /** About 300 lines: a class past it does more than one thing. */
    static final int MAX_LINES = 310;
    private static final Path KIT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
    private static final JavaClasses LAB = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("fencing.lab");

    @Test
    @DisplayName("the lab's packages have no cycle, and none below fencing.lab depends on the runner's own package")
    void packagesHaveNoCycle() {
        slices().matching("fencing.lab.(*)..").should().beFreeOfCycles().check(LAB);
        noClasses().that().resideInAPackage("fencing.lab.*..").should().dependOnClassesThat().resideInAPackage("fencing.lab").check(LAB);
    }

    @Test
    @DisplayName("the run is by role: the cases and the chaos run depend on the engine in fencing.lab.run, never it on them, nor they on each other")
    void runDependsOneWay() {
        noClasses().that().resideInAPackage("fencing.lab.run").should().dependOnClassesThat()
                .resideInAnyPackage("fencing.lab.run.cases..", "fencing.lab.run.chaos..")
                .as("the engine (fencing.lab.run) depends on no case and not on the chaos run").check(LAB);
        slices().matching("fencing.lab.run.(*)..").should().beFreeOfCycles().check(LAB);
        noClasses().that().resideInAPackage("fencing.lab.run.chaos..").should().dependOnClassesThat()
                .resideInAPackage("fencing.lab.run.cases..").check(LAB);
        noClasses().that().resideInAPackage("fencing.lab.run.cases..").should().dependOnClassesThat()
                .resideInAPackage("fencing.lab.run.chaos..").check(LAB);
    }

    @Test
    @DisplayName("Repeats and ChaosStudy take what they share with Study from LabSettings, and use nothing of Study")
    void runsUseNothingOfTheCommandLine() throws IOException {
        noClasses().that().belongToAnyOf(Repeats.class, ChaosStudy.class).should().dependOnClassesThat().belongToAnyOf(Study.class)
                .as("Repeats and ChaosStudy depend on nothing of Study").check(LAB);
        // javac copies a constant into the class that reads it, so a use of one of Study's constants shows only in the source.
        Pattern named = Pattern.compile("(?<![.\\w])Study[.#]\\w+");
        for (Class<?> run : List.of(Repeats.class, ChaosStudy.class)) {
            Path source = KIT.resolve("labs/src/main/java/" + run.getName().replace('.', '/') + ".java");
            assertThat(named.matcher(Files.readString(source)).results().map(MatchResult::group))
                    .as("what %s names of Study (it takes such things from LabSettings)", run.getSimpleName()).isEmpty();
        }
    }

    @Test
    @DisplayName("the evidence names the study's main class as the tool that wrote it")
    void evidenceNamesTheStudy() {
        assertThat(LabSettings.TOOL).as("evidence.json's tool, against Study's class name").isEqualTo(Study.class.getName());
    }

    @Test
    @DisplayName("no class of the lab or of fencing.support is over about 300 lines")
    void noClassIsOverAboutThreeHundredLines() throws IOException {
        List<String> long_ = new ArrayList<>();
        for (Path root : List.of(KIT.resolve("labs/src/main/java"), KIT.resolve("exercises/src/main/java/fencing/support"))) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    long lines = Files.readAllLines(file).size();
                    if (lines > MAX_LINES) {
                        long_.add(KIT.relativize(file) + ": " + lines + " lines");
                    }
                }
            }
        }
        assertThat(long_).as("classes over %d lines", MAX_LINES).isEmpty();
    }
}
