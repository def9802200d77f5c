package fencing.grading;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget.CodeUnitAccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the structure rules look for in compiled code, whichever way the source reaches it.
 *
 * <p>The predicates match a {@link JavaAccess}, which ArchUnit records for a plain call and for a method or constructor
 * reference ({@code System::nanoTime}, {@code Date::new}) alike, and for code in a lambda, which it credits to the
 * method declaring the lambda. A rule built with {@code accessTargetWhere} therefore judges what the bytecode does,
 * not how the source spells it; {@code callMethod} and {@code callConstructor} would miss every reference.
 */
public final class Accesses {

    private Accesses() {
    }

    /** Returns a predicate true of an access to any member of {@code owner} named one of {@code names}. */
    public static DescribedPredicate<JavaAccess<?>> toAnyOf(Class<?> owner, Set<String> names) {
        return DescribedPredicate.describe(
                owner.getSimpleName() + "." + String.join("/", names),
                access -> access.getTargetOwner().isEquivalentTo(owner) && names.contains(access.getName()));
    }

    /**
     * Returns a predicate true of a call to, or a reference of, the method or constructor ({@code "<init>"}) of
     * {@code owner} named {@code name} with exactly {@code parameterTypes}.
     */
    public static DescribedPredicate<JavaAccess<?>> toCodeUnit(Class<?> owner, String name, Class<?>... parameterTypes) {
        List<String> wanted = Arrays.stream(parameterTypes).map(Class::getName).toList();
        return DescribedPredicate.describe(
                owner.getSimpleName() + "." + name + "(" + String.join(", ", wanted) + ")",
                access -> access.getTarget() instanceof CodeUnitAccessTarget target
                        && target.getOwner().isEquivalentTo(owner)
                        && target.getName().equals(name)
                        && target.getRawParameterTypes().stream().map(JavaClass::getName).toList().equals(wanted));
    }

    /** Returns a predicate true of a call to, or a reference of, a method named {@code name} of a class in {@code packageName}. */
    public static DescribedPredicate<JavaAccess<?>> toMethodInPackage(String packageName, String name) {
        return DescribedPredicate.describe(
                packageName + " ..." + name + "()",
                access -> access.getTarget() instanceof CodeUnitAccessTarget
                        && access.getTargetOwner().getPackageName().equals(packageName)
                        && access.getName().equals(name));
    }

    /**
     * Returns every access made by {@code start} and by the code of {@code file} that it reaches: each method or
     * constructor of {@code file} it calls or references, and, for a class of {@code file} it instantiates (a nested,
     * local or anonymous class, a record), every code unit of that class, since the object's methods run wherever it is
     * used, which the bytecode does not tie to a call site. Code in a lambda counts as its declaring method's.
     */
    public static List<JavaAccess<?>> reachableFrom(JavaCodeUnit start, JavaClasses file) {
        Set<JavaCodeUnit> seen = new HashSet<>();
        Deque<JavaCodeUnit> left = new ArrayDeque<>(List.of(start));
        List<JavaAccess<?>> accesses = new ArrayList<>();
        while (!left.isEmpty()) {
            JavaCodeUnit unit = left.pop();
            if (!seen.add(unit)) {
                continue;
            }
            for (JavaAccess<?> access : unit.getAccessesFromSelf()) {
                accesses.add(access);
                String owner = access.getTargetOwner().getName();
                if (!(access.getTarget() instanceof CodeUnitAccessTarget target) || !file.contain(owner)) {
                    continue;
                }
                target.resolveMember().ifPresent(left::push);
                JavaClass instantiated = file.get(owner);
                if (target.getName().equals("<init>") && !instantiated.equals(start.getOwner())) {
                    left.addAll(instantiated.getCodeUnits());
                    instantiated.getStaticInitializer().ifPresent(left::push);
                }
            }
        }
        return accesses;
    }
}
