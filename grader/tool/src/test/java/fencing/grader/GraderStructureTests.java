package fencing.grader;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * How the grading tool is built: packages without cycles, in the order grader/tool/README.md gives; and classes a maintainer
 * can read whole, in every module of the kit.
 */
class GraderStructureTests {

    /** About 300 lines, as in the lab, with room for a long Javadoc: a class past it does more than one thing. */
    static final int MAX_LINES = 330;
    /** The packages of README.md's table, in its order: each rests only on those after it. */
    static final List<String> LAYERS = List.of("cli", "batch", "classpage", "report", "files", "pipeline", "sandbox", "handout", "");

    private static final String ROOT = "fencing.grader";
    private static final Path TOOL = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
    private static final Path KIT = TOOL.getParent().getParent();
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final JavaClasses GRADER = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    /** One slice per package right below {@code fencing.grader}, and one for {@code fencing.grader} itself. */
    private static final SliceAssignment PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            if (name.equals(ROOT)) {
                return SliceIdentifier.of(ROOT);
            }
            return name.startsWith(ROOT + ".") ? SliceIdentifier.of(name.substring(ROOT.length() + 1).split("\\.")[0])
                    : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the packages of " + ROOT;
        }
    };

    @Test
    @DisplayName("the grader's packages have no cycle")
    void packagesHaveNoCycle() {
        slices().assignedFrom(PACKAGES).should().beFreeOfCycles().check(GRADER);
    }

    @Test
    @DisplayName("each of the grader's packages depends only on those after it in README.md's table")
    void dependenciesRunOneWay() {
        assertThat(GRADER.stream().map(JavaClass::getPackageName).filter(name -> name.startsWith(ROOT)).map(GraderStructureTests::layer)
                .distinct()).as("the packages of %s, each of which the table must list", ROOT).allMatch(LAYERS::contains);
        for (int i = 1; i < LAYERS.size(); i++) {
            String[] above = LAYERS.subList(0, i).stream().map(GraderStructureTests::pattern).toArray(String[]::new);
            noClasses().that().resideInAPackage(pattern(LAYERS.get(i))).should().dependOnClassesThat().resideInAnyPackage(above)
                    .check(GRADER);
        }
    }

    @Test
    @DisplayName("no main class of any of the kit's modules is over the line cap")
    void noClassIsOverTheLineCap() throws IOException {
        List<Path> modules = modules(KIT);
        assertThat(modules).as("the modules the root pom.xml names, and theirs, among them this one and the lab").contains(TOOL,
                KIT.resolve("labs"));
        List<String> long_ = new ArrayList<>();
        for (Path module : modules) {
            Path sources = module.resolve("src/main/java");
            if (!Files.isDirectory(sources)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    long lines = Files.readAllLines(file).size();
                    if (lines > MAX_LINES) {
                        long_.add(KIT.relativize(file) + ": " + lines + " lines");
                    }
                }
            }
        }
        assertThat(long_).as("main classes over %d lines in the modules %s", MAX_LINES,
                modules.stream().map(module -> module.equals(KIT) ? "." : KIT.relativize(module).toString()).toList()).isEmpty();
    }

    /** Returns {@code dir} and, as its {@code pom.xml} names them, its modules and theirs. */
    private static List<Path> modules(Path dir) throws IOException {
        List<Path> modules = new ArrayList<>(List.of(dir));
        Matcher named = MODULE.matcher(Files.readString(dir.resolve("pom.xml")));
        while (named.find()) {
            modules.addAll(modules(dir.resolve(named.group(1).trim()).normalize()));
        }
        return modules;
    }

    /** Returns the name of the layer a package belongs to: the package right below {@code fencing.grader}, or "" for it. */
    private static String layer(String name) {
        return name.equals(ROOT) ? "" : name.substring(ROOT.length() + 1).split("\\.")[0];
    }

    private static String pattern(String layer) {
        return layer.isEmpty() ? ROOT : ROOT + "." + layer + "..";
    }
}
