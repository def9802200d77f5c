package fencing.grading;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a hidden test as graded: the points it is worth and the properties it checks.
 *
 * <p>The grading process reads this annotation from its own copy of the test classes, never from
 * anything the submission's JVM reports, so a submission cannot change what a test is worth.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Graded {

    /**
     * The test's weight among the tests of its main property: the property's points, set in
     * {@code grader/grading-policy.yml}, are shared in proportion to these weights.
     */
    int points() default 1;

    /**
     * The properties this test checks, the main one first, each listed in {@code grader/grading-policy.yml}; Part 4
     * tests carry {@code extension} and one of {@code pre-contact}, {@code current-owner}, {@code forged-token},
     * {@code idempotency}; the restore drill's carry {@code extension} and {@code lineage}.
     */
    String[] tags();
}
