package fencing.basics;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.Source;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.net.MalformedURLException;
import java.net.URL;

/**
 * Imports, for ArchUnit, the compiled classes of one student-owned source file.
 *
 * <p>The classes come from the place the running class was loaded from (the submission, not the
 * stub behind it on the class path), and include everything declared in the same file: nested,
 * anonymous and local classes, and extra top-level classes.
 */
final class SubmittedClasses {

    private SubmittedClasses() {
    }

    /** Returns the classes compiled from the source file of {@code studentClass}, e.g. {@code Resource.java}. */
    static JavaClasses of(Class<?> studentClass) {
        URL classFile = studentClass.getResource(studentClass.getSimpleName() + ".class");
        if (classFile == null) {
            throw new IllegalStateException("cannot find the class file of " + studentClass.getName());
        }
        URL packageDirectory;
        try {
            packageDirectory = new URL(classFile, ".");
        } catch (MalformedURLException e) {
            throw new IllegalStateException("cannot locate the package of " + classFile, e);
        }
        String sourceFile = studentClass.getSimpleName() + ".java";
        String name = studentClass.getName();
        // Only the submission's own classes are inspected; resolving every class they mention from
        // the class path would cost seconds and add nothing the rules need (they match by name).
        JavaClasses imported = ArchConfiguration.withThreadLocalScope(configuration -> {
            configuration.setResolveMissingDependenciesFromClassPath(false);
            return new ClassFileImporter().importUrl(packageDirectory);
        });
        return imported.that(DescribedPredicate.describe("declared in " + sourceFile, (JavaClass c) ->
                c.getName().equals(name)
                        || c.getName().startsWith(name + "$")
                        || sourceFile.equals(c.getSource().flatMap(Source::getFileName).orElse(""))));
    }
}
