package fencing.basics;

import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassReader;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassWriter;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.MethodVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.Opcodes;
import fencing.grading.Backstop;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A copy of the submission's {@code LockService} whose every field access and call is a step at which the grader can
 * hold a thread.
 *
 * <p>Each copy is loaded afresh by a class loader of its own, from the same class files, with a call to {@link #step}
 * after each field read or write, each method call and each {@code monitorenter} of the submission's
 * {@code fencing.basics} classes. The grader can then hold one thread right after step {@code k} of its
 * {@code acquire}, let a second thread acquire, and see what each got: which interleaving is run is the grader's
 * choice, not the scheduler's.
 */
public final class SteppedLockServices {

    /**
     * How long a step may take, or a held thread wait, before the grader gives up on it: a {@link Backstop}, so the time the
     * machine kept the threads waiting for a CPU does not count.
     */
    static final Duration STEP_LIMIT = Duration.ofSeconds(4);

    private static final AtomicReference<Hold> HOLD = new AtomicReference<>();

    private SteppedLockServices() {
    }

    /** A fresh copy of the class: its {@code acquire} and the names of its steps. */
    static final class Copy {

        private final Object service;
        private final MethodHandle acquire;
        private final List<String> steps;

        private Copy(Object service, MethodHandle acquire, List<String> steps) {
            this.service = service;
            this.acquire = acquire;
            this.steps = steps;
        }

        long acquire(String client) {
            try {
                return (long) acquire.invoke(service, client);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException("LockService.acquire threw " + e, e);
            }
        }

        /** Names step {@code id}, as numbered in the class files. */
        String step(int id) {
            return steps.get(id);
        }
    }

    /** Returns a new {@code LockService}, its class loaded afresh with steps the grader can hold a thread at. */
    static Copy newLockService() {
        try {
            StepLoader loader = new StepLoader(LockService.class);
            Class<?> type = Class.forName(LockService.class.getName(), true, loader);
            Object service = type.getConstructor().newInstance();
            MethodHandle acquire = MethodHandles.publicLookup()
                    .findVirtual(type, "acquire", MethodType.methodType(long.class, String.class));
            return new Copy(service, acquire, loader.steps);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("could not load a stepped copy of LockService", e);
        }
    }

    /** Called by the copies after each of their steps; holds the thread that {@link #holdAfter} named there. */
    public static void step(int id) {
        Hold hold = HOLD.get();
        if (hold != null && Thread.currentThread() == hold.thread && ++hold.count == hold.k) {
            hold.heldAt = id;
            hold.held.countDown();
            try {
                if (!Backstop.of(STEP_LIMIT.multipliedBy(2)).await(hold.resume)) {
                    throw new IllegalStateException("the grader did not let the held thread go on");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("the held thread was interrupted", e);
            }
        }
    }

    /** Holds {@code thread} after its step {@code k} (counted from 1) until {@link Hold#release} is called. */
    static Hold holdAfter(Thread thread, int k) {
        Hold hold = new Hold(thread, k);
        HOLD.set(hold);
        return hold;
    }

    /** Counts {@code thread}'s steps without holding it. */
    static Hold count(Thread thread) {
        return holdAfter(thread, 0);
    }

    /** Where a thread is held; only the held thread touches {@code count}. */
    static final class Hold {

        private final Thread thread;
        private final int k;
        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch resume = new CountDownLatch(1);
        private int count;
        private volatile int heldAt = -1;

        private Hold(Thread thread, int k) {
            this.thread = thread;
            this.k = k;
        }

        /** Waits until the thread is held or {@code done} is; returns whether it is held. */
        boolean awaitHeld(CountDownLatch done) throws InterruptedException {
            Backstop limit = Backstop.of(STEP_LIMIT);
            while (!limit.passed()) {
                if (held.await(5, TimeUnit.MILLISECONDS)) {
                    return true;
                }
                if (done.getCount() == 0) {
                    return held.getCount() == 0;
                }
            }
            throw new IllegalStateException("the thread neither reached its step " + k + " nor ended within "
                    + STEP_LIMIT.toSeconds() + " s");
        }

        /** Returns the id of the step the thread is held at. */
        int heldAt() {
            return heldAt;
        }

        /** Returns how many steps the thread took, when it was only counted. */
        int steps() {
            return count;
        }

        void release() {
            HOLD.compareAndSet(this, null);
            resume.countDown();
        }
    }

    /** Loads the submission's {@code fencing.basics} classes itself, stepped, and everything else from its parent. */
    private static final class StepLoader extends ClassLoader {

        private final String submission;
        private final List<String> steps = Collections.synchronizedList(new ArrayList<>());

        StepLoader(Class<?> submitted) {
            super("stepped-lock-service", submitted.getClassLoader());
            this.submission = location(submitted.getClassLoader(), submitted.getName());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("fencing.basics.") || !submission.equals(location(getParent(), name))) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    byte[] bytes = stepped(name);
                    loaded = defineClass(name, bytes, 0, bytes.length);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }

        /** Returns where the class files of {@code name} come from (its folder or jar), or "" if nowhere. */
        private static String location(ClassLoader loader, String name) {
            String resource = name.replace('.', '/') + ".class";
            URL url = loader.getResource(resource);
            if (url == null) {
                return "";
            }
            String text = url.toString();
            return text.substring(0, text.length() - resource.length());
        }

        private byte[] stepped(String name) throws ClassNotFoundException {
            String resource = name.replace('.', '/') + ".class";
            try (InputStream in = getParent().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                ClassReader reader = new ClassReader(in.readAllBytes());
                ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
                reader.accept(new Stepping(writer, name.substring(name.lastIndexOf('.') + 1)), 0);
                return writer.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException("could not read " + resource, e);
            }
        }

        /** Adds a call to {@link SteppedLockServices#step} after each field access, call and monitorenter. */
        private final class Stepping extends ClassVisitor {

            private final String simpleName;

            Stepping(ClassVisitor next, String simpleName) {
                super(Opcodes.ASM9, next);
                this.simpleName = simpleName;
            }

            @Override
            public MethodVisitor visitMethod(int access, String method, String descriptor, String signature,
                                             String[] exceptions) {
                MethodVisitor next = super.visitMethod(access, method, descriptor, signature, exceptions);
                String where = simpleName + "." + method;
                return new MethodVisitor(Opcodes.ASM9, next) {
                    @Override
                    public void visitFieldInsn(int opcode, String owner, String field, String fieldDescriptor) {
                        super.visitFieldInsn(opcode, owner, field, fieldDescriptor);
                        String verb = opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC ? "read" : "wrote";
                        stepAfter(where + " " + verb + " the field " + field);
                    }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String name, String methodDescriptor,
                                                boolean isInterface) {
                        super.visitMethodInsn(opcode, owner, name, methodDescriptor, isInterface);
                        stepAfter(where + " called " + owner.substring(owner.lastIndexOf('/') + 1) + "." + name);
                    }

                    @Override
                    public void visitInsn(int opcode) {
                        super.visitInsn(opcode);
                        if (opcode == Opcodes.MONITORENTER) {
                            stepAfter(where + " entered a synchronized block");
                        }
                    }

                    private void stepAfter(String description) {
                        int id;
                        synchronized (steps) {
                            id = steps.size();
                            steps.add(description);
                        }
                        super.visitLdcInsn(id);
                        super.visitMethodInsn(Opcodes.INVOKESTATIC, "fencing/basics/SteppedLockServices", "step", "(I)V", false);
                    }
                };
            }
        }
    }
}
