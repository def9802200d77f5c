package fencing.grader.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds state a submission keeps in static fields: a static field that is not a constant of a value type. Two groups of
 * tests running side by side in one JVM ({@link SideBySide}) would share such state, and each group's verdicts could
 * then depend on how far the other had got.
 *
 * <p>The classes are loaded from the submission's class directory without being initialized, so none of their code runs.
 * A static field of a type not known here to be a value type counts as state: at worst the groups then run in JVMs of
 * their own, which takes longer and gives the same verdicts.
 */
final class StaticState {

    /** Types whose instances cannot change: a static final field of one is a constant. */
    private static final Set<String> VALUE_TYPES = Set.of("java.lang.String", "java.lang.Boolean", "java.lang.Byte",
            "java.lang.Character", "java.lang.Short", "java.lang.Integer", "java.lang.Long", "java.lang.Float",
            "java.lang.Double", "java.time.Duration", "java.time.Instant", "java.math.BigInteger", "java.math.BigDecimal",
            "java.util.regex.Pattern", "java.nio.charset.Charset", "java.util.UUID", "io.etcd.jetcd.ByteSequence");

    private StaticState() {
    }

    /**
     * Returns the first static field of the submission's classes {@code classNames} in {@code classes} that can hold
     * state, as {@code Class.field}, or nothing; {@code kit} resolves the types the classes refer to.
     */
    static Optional<String> find(Path classes, List<String> classNames, ClassLoader kit) {
        try (SubmissionFirst loader = new SubmissionFirst(classes, classNames, kit)) {
            for (String name : classNames) {
                Class<?> type = Class.forName(name, false, loader);
                for (Field field : type.getDeclaredFields()) {
                    if (holdsState(field)) {
                        return Optional.of(name + "." + field.getName());
                    }
                }
            }
            return Optional.empty();
        } catch (ClassNotFoundException | LinkageError e) {
            // A class that cannot even be loaded here is the tests' to report; alone in their JVMs they say the same.
            return Optional.of("a class that could not be read (" + e + ")");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the class loader over " + classes, e);
        }
    }

    private static boolean holdsState(Field field) {
        int modifiers = field.getModifiers();
        if (!Modifier.isStatic(modifiers) || field.isSynthetic() || field.isEnumConstant()) {
            return false;
        }
        boolean value = field.getType().isPrimitive() || VALUE_TYPES.contains(field.getType().getName());
        return !(Modifier.isFinal(modifiers) && value);
    }

    /** Loads the submission's classes from its class directory before the kit's stubs of them, and the rest from the kit. */
    private static final class SubmissionFirst extends URLClassLoader {

        private final Set<String> own;

        SubmissionFirst(Path classes, List<String> own, ClassLoader kit) {
            super(new URL[] {url(classes)}, kit);
            this.own = Set.copyOf(own);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!own.contains(name)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                return loaded != null ? loaded : findClass(name);
            }
        }

        private static URL url(Path classes) {
            try {
                return classes.toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("not a class directory: " + classes, e);
            }
        }
    }
}
