package fencing.sink;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import fencing.grading.Accesses;
import fencing.grading.Graded;
import java.net.URL;
import java.nio.file.Path;
import java.time.Clock;
import java.time.InstantSource;
import java.util.Date;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("FencedSink: it decides from the token and its own mark alone")
class SinkStructureTests {

    @Test
    @Graded(points = 1, tags = "structure")
    @DisplayName("Nothing in fencing.sink depends on the lock service: the sink trusts tokens, not locks")
    void sinkDependsOnNoLockService(@TempDir Path dir) {
        JavaClasses sink = exercisedSinkClasses(dir);

        ArchRule rule = noClasses().that().resideInAPackage("fencing.sink")
                .should().dependOnClassesThat().resideInAnyPackage("fencing.etcd..", "io.etcd.jetcd..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("fencing.basics.LockService");

        assertThat(violations(rule, sink))
                .as("the sink must decide from the token and its own mark alone: nothing in fencing.sink may use "
                        + "fencing.etcd, jetcd or LockService, because a sink cannot trust that a lock is still held")
                .isEmpty();
    }

    @Test
    @Graded(points = 1, tags = "structure")
    @DisplayName("FencedSink reads no clock: staleness comes from tokens, not from time")
    void sinkReadsNoClock(@TempDir Path dir) {
        JavaClasses sink = exercisedSinkClasses(dir);

        ArchRule rule = noClasses().that().resideInAPackage("fencing.sink")
                // accessTargetWhere, unlike callMethod, also sees a method reference such as System::nanoTime.
                .should().accessTargetWhere(Accesses.toAnyOf(System.class, Set.of("currentTimeMillis", "nanoTime")))
                .orShould().accessTargetWhere(Accesses.toMethodInPackage("java.time", "now"))
                .orShould().accessTargetWhere(Accesses.toCodeUnit(Date.class, "<init>"))
                .orShould().dependOnClassesThat().belongToAnyOf(Clock.class, InstantSource.class);

        assertThat(violations(rule, sink))
                .as("a fenced sink must judge a write by its token alone; observed: the clock reads below%nreading a clock"
                        + " (System.currentTimeMillis, nanoTime, java.time ...now(), new Date(), Clock) means it guesses"
                        + " staleness from time, which a paused writer defeats, and a writer's own lease timer is no better: its clock can run slow"
                        + " (the lab's slow-clock case)")
                .isEmpty();
    }

    /**
     * Runs the submission's sink once, then imports the classes from where its {@code FencedSink} was loaded.
     *
     * <p>Running it first makes an unfinished sink fail here with its own message instead of passing
     * a rule it has not yet had the chance to break.
     */
    private static JavaClasses exercisedSinkClasses(Path dir) {
        FencedSink sink = new FencedSink(ConnectionSource.sqlite(dir.resolve("sink.db")));
        sink.write(1, "structure check");
        assertThat(sink.read())
                .as("the sink must store a first write (token 1) before its structure is checked")
                .isEqualTo(new SinkState("structure check", 1));
        JavaClasses classes = importWithoutResolvingDependencies(FencedSink.class.getProtectionDomain().getCodeSource().getLocation());
        assertThat(classes.contain(FencedSink.class.getName()))
                .as("the grader must find the FencedSink it ran among the classes it checks")
                .isTrue();
        return classes;
    }

    /**
     * Imports the classes under {@code location} alone.
     *
     * <p>The rules look only at the names of the classes the sink uses, so there is no need to import
     * the whole class path behind them (jetcd, Netty, ...), which takes seconds.
     */
    private static JavaClasses importWithoutResolvingDependencies(URL location) {
        ArchConfiguration configuration = ArchConfiguration.get();
        boolean resolving = configuration.resolveMissingDependenciesFromClassPath();
        configuration.setResolveMissingDependenciesFromClassPath(false);
        try {
            return new ClassFileImporter().importUrl(location);
        } finally {
            configuration.setResolveMissingDependenciesFromClassPath(resolving);
        }
    }

    private static java.util.List<String> violations(ArchRule rule, JavaClasses classes) {
        EvaluationResult result = rule.evaluate(classes);
        return result.getFailureReport().getDetails();
    }
}
