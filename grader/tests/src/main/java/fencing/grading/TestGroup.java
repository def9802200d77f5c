package fencing.grading;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the group a hidden test class runs in: a grade runs its groups side by side, each on a thread of its own, so that
 * one class's waits (a lease that must expire, a snapshot restore, a sink process held mid-write) overlap another's.
 *
 * <p>Within a group the tests run one at a time, in JUnit's order, whatever the machine or how many grades run at once:
 * the grouping is part of the tests, never a choice of the grader's. Balance the groups by the time their tests wait: a
 * grade lasts as long as its longest group. A class without this annotation is in the group {@value #MAIN}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface TestGroup {

    /** The group of the classes that name none. */
    String MAIN = "main";

    /** The group's name: lower-case letters and hyphens. */
    String value();
}
