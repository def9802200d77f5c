package fencing.basics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import fencing.grading.Accesses;
import fencing.grading.Graded;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Checks how the Part 1 classes are built, not only what they return.
 *
 * <p>Each test first exercises the classes it inspects, so that an unimplemented stub fails with its
 * "Not implemented yet" message instead of passing a rule it trivially obeys.
 *
 * <p>Each rule judges every class compiled from the student's file, and counts a method reference as it counts a call
 * (see {@link Accesses}), so that a correct solution written with lambdas, helpers or nested classes is not accused and
 * a forbidden call written that way is still found.
 */
@DisplayName("Structure: only tokens decide, and nothing stops the JVM")
class StructureGradedTests {

    private static final List<Class<?>> STUDENT_CLASSES = List.of(
            LockService.class, Resource.class, NaiveResource.class, Fencing.class, Predictions.class, Quorum.class);

    /** Each student class's compiled classes, imported once: importing reads class files, and no code of the submission runs. */
    private static final Map<Class<?>, JavaClasses> IMPORTED = new HashMap<>();

    /**
     * Imports the student classes before the tests, in the class's set-up with a limit of its own: ArchUnit's imports
     * take seconds under half a CPU, which must not count against a test's timeout.
     */
    @BeforeAll
    static void importTheStudentClasses() {
        STUDENT_CLASSES.forEach(studentClass -> IMPORTED.put(studentClass, SubmittedClasses.of(studentClass)));
    }

    @Test
    @Graded(points = 2, tags = "structure")
    @DisplayName("Resource never uses the LockService: only the resource's own mark decides")
    void resourceNeverDependsOnLockService() {
        exerciseResource();
        JavaClasses resource = IMPORTED.get(Resource.class);
        ArchRule rule = ArchRuleDefinition.noClasses()
                .should().dependOnClassesThat().haveFullyQualifiedName(LockService.class.getName());

        assertThat(violations(rule, resource))
                .as("Resource.java must not use LockService: only the resource sees every write, so its own"
                        + " high-water mark decides, and the lock service cannot tell a stale holder from a current"
                        + " one; these uses were found")
                .isEmpty();
    }

    @Test
    @Graded(points = 2, tags = "structure")
    @DisplayName("Resource reads no clock: staleness comes from tokens, not from time")
    void resourceReadsNoClock() {
        exerciseResource();
        JavaClasses resource = IMPORTED.get(Resource.class);
        ArchRule rule = ArchRuleDefinition.noClasses()
                .should().accessTargetWhere(Accesses.toAnyOf(System.class, Set.of("currentTimeMillis", "nanoTime")))
                .orShould().dependOnClassesThat().resideInAPackage("java.time..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName(java.util.Date.class.getName())
                .orShould().dependOnClassesThat().haveFullyQualifiedName(java.util.Calendar.class.getName())
                .orShould().dependOnClassesThat().haveFullyQualifiedName(java.util.GregorianCalendar.class.getName());

        assertThat(violations(rule, resource))
                .as("Resource.java must read no clock (System.currentTimeMillis, System.nanoTime, java.time,"
                        + " Date, Calendar); observed: the clock reads below%na write is stale because its token is below the"
                        + " high-water mark, never because time passed, by the resource's clock or by the holder's, which can"
                        + " run slow (the lab's slow-clock case)")
                .isEmpty();
    }

    @Test
    @Graded(points = 1, tags = "structure")
    @DisplayName("No Part 1 class stops the JVM with System.exit, Runtime.exit or Runtime.halt")
    void noClassStopsTheJvm() {
        assertThatCode(() -> {
            new LockService().acquire("A");
            new Resource().write(1, "x");
            new NaiveResource().write(1, "x");
            Fencing.isStale(1, 2);
            Quorum.size(3);
        })
                .as("each Part 1 class must be implemented before its structure is graded")
                .doesNotThrowAnyException();
        ArchRule rule = ArchRuleDefinition.noClasses()
                .should().accessTargetWhere(Accesses.toAnyOf(System.class, Set.of("exit")))
                .orShould().accessTargetWhere(Accesses.toAnyOf(Runtime.class, Set.of("exit", "halt")));
        List<String> found = new ArrayList<>();
        for (Class<?> studentClass : STUDENT_CLASSES) {
            found.addAll(violations(rule, IMPORTED.get(studentClass)));
        }

        assertThat(found)
                .as("no class in %s may call System.exit, Runtime.exit or Runtime.halt: stopping the JVM takes"
                        + " down every program that uses the class, so report a problem with an exception instead;"
                        + " these calls were found",
                        STUDENT_CLASSES.stream().map(c -> c.getSimpleName() + ".java").toList())
                .isEmpty();
    }

    @Test
    @Graded(points = 1, tags = "structure")
    @DisplayName("Fencing.scenario takes its tokens from a LockService, not from literals")
    void scenarioTakesItsTokensFromALockService() {
        assertThatCode(() -> Fencing.scenario(Resource::new))
                .as("Fencing.scenario must run before its structure is graded")
                .doesNotThrowAnyException();
        JavaClasses fencing = IMPORTED.get(Fencing.class);
        DescribedPredicate<JavaAccess<?>> acquire = Accesses.toCodeUnit(LockService.class, "acquire", String.class);
        List<JavaMethod> scenario = fencing.get(Fencing.class).getMethods().stream()
                .filter(method -> method.getName().equals("scenario")).toList();
        // Whatever scenario reaches in Fencing.java may ask, so that a helper method, a lambda, a method reference
        // (locks::acquire), a nested record or an anonymous class counts as well as a plain call in scenario itself;
        // a call elsewhere in the file (in preContact, say) does not.
        List<String> asks = scenario.stream()
                .flatMap(method -> Accesses.reachableFrom(method, fencing).stream())
                .filter(acquire)
                .map(JavaAccess::getDescription)
                .toList();

        assertThat(asks)
                .as("rule: in the lesson's timeline A and B get their tokens from the lock service, so"
                        + " Fencing.scenario must call LockService.acquire for them instead of writing 1 and 2 as"
                        + " literals; observed: no call or method reference of LockService.acquire(String) in scenario"
                        + "%nor in what it reaches of %s", fencing.stream().map(JavaClass::getName).sorted().toList())
                .isNotEmpty();
    }

    /** Runs a little of the resource so that a stub fails here with its own message. */
    private static void exerciseResource() {
        Resource resource = new Resource();
        assertThat(resource.write(2, "current"))
                .as("a write with token 2 on a new resource must be accepted before its structure is graded")
                .isTrue();
    }

    private static List<String> violations(ArchRule rule, JavaClasses classes) {
        assertThat(classes)
                .as("the compiled classes under inspection must be found on the class path")
                .isNotEmpty();
        EvaluationResult result = rule.evaluate(classes);
        return result.getFailureReport().getDetails();
    }
}
