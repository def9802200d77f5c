package fencing.grading;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the test JVM a hidden test class runs in: a grade runs its test JVMs side by side, so that one class's waits (a
 * lease that must expire, a snapshot restore, a sink process held mid-write) overlap another's.
 *
 * <p>Each class always runs in the JVM of its name, with the same classes before it in the same order, whatever the
 * machine or how many grades run at once: the grouping is part of the tests, never a choice of the grader's. Within one
 * JVM the tests still run one at a time, so a test's CPU budget is the CPU of its own JVM. A class without this
 * annotation runs in the JVM named {@value #MAIN}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface TestJvm {

    /** The name of the JVM of the classes that name none. */
    String MAIN = "main";

    /** The JVM's name: lower-case letters and hyphens. */
    String value();
}
