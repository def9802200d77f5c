package fencing.sink;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.util.Set;

/**
 * Builds a {@link FencedSink} whose class is loaded afresh, as a second sink process would load it.
 *
 * <p>Two sink processes share the database file and nothing else: no Java field, no {@code static}
 * lock. Inside one JVM, a second class loader gives the submission's {@code FencedSink} (and any
 * helper class of its package) a separate copy of its statics, so only the database can keep two
 * writers apart. The contract's public types stay shared, so the copy is still a {@link Sink}.
 */
final class IsolatedSinks {

    /** The contract's types, shared with the copy so that it can be called as a {@link Sink}. */
    private static final Set<String> SHARED = Set.of(
            "fencing.sink.Sink",
            "fencing.sink.ConnectionSource",
            "fencing.sink.WriteResult",
            "fencing.sink.SinkState",
            "fencing.sink.SinkException",
            "fencing.sink.OwnerCheck",
            "fencing.sink.RequestResult");

    private IsolatedSinks() {
    }

    /** Returns a new {@code FencedSink} over {@code db}, its class loaded in a class loader of its own. */
    static Sink newFencedSink(ConnectionSource db) {
        try {
            Class<?> copy = Class.forName(FencedSink.class.getName(), true, new SinkProcessLoader(FencedSink.class.getClassLoader()));
            return (Sink) copy.getConstructor(ConnectionSource.class).newInstance(db);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            throw new IllegalStateException("new FencedSink(db) failed in a second class loader", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("could not load FencedSink in a second class loader", e);
        }
    }

    /** Returns a new {@code OwnerCheckingSink} over {@code db} and {@code owners}, its class loaded in a class loader of its own. */
    static Sink newOwnerCheckingSink(ConnectionSource db, OwnerCheck owners) {
        return (Sink) newCopy(OwnerCheckingSink.class, new Class<?>[] {ConnectionSource.class, OwnerCheck.class}, db, owners);
    }

    /** A ledger's {@code add}, called on a copy whose class was loaded in a class loader of its own. */
    @FunctionalInterface
    interface Ledger {
        RequestResult add(long token, String requestId, long amount);
    }

    /** Returns a new {@code IdempotentLedger} over {@code db}, its class loaded in a class loader of its own. */
    static Ledger newLedger(ConnectionSource db) {
        Object copy = newCopy(IdempotentLedger.class, new Class<?>[] {ConnectionSource.class}, db);
        return (token, requestId, amount) -> {
            try {
                return (RequestResult) copy.getClass().getMethod("add", long.class, String.class, long.class)
                        .invoke(copy, token, requestId, amount);
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof RuntimeException) {
                    throw (RuntimeException) e.getCause();
                }
                throw new IllegalStateException("IdempotentLedger.add failed in a second class loader", e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("could not call IdempotentLedger.add in a second class loader", e);
            }
        };
    }

    private static Object newCopy(Class<?> type, Class<?>[] parameters, Object... arguments) {
        try {
            Class<?> copy = Class.forName(type.getName(), true, new SinkProcessLoader(type.getClassLoader()));
            return copy.getConstructor(parameters).newInstance(arguments);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            throw new IllegalStateException("new " + type.getSimpleName() + "(...) failed in a second class loader", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("could not load " + type.getSimpleName() + " in a second class loader", e);
        }
    }

    /** Loads the package's own classes itself, from the same class files, and everything else from its parent. */
    private static final class SinkProcessLoader extends ClassLoader {

        SinkProcessLoader(ClassLoader parent) {
            super("second-sink-process", parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("fencing.sink.") || SHARED.contains(name)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    loaded = defineOwnCopy(name);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }

        private Class<?> defineOwnCopy(String name) throws ClassNotFoundException {
            String resource = name.replace('.', '/') + ".class";
            try (InputStream in = getParent().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] bytes = in.readAllBytes();
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new UncheckedIOException("could not read " + resource, e);
            }
        }
    }
}
