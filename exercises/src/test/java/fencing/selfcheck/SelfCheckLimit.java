package fencing.selfcheck;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Says where a self-check test was when it reached its limit: in which method of the files a student writes.
 *
 * <p>{@code junit-platform.properties} gives every test a limit and runs each test on a thread of its own, which JUnit
 * abandons at the limit, so that even a loop deaf to interrupts cannot stop the run. JUnit then fails the test with a
 * {@link TimeoutException} saying only {@code "... timed out after 60 seconds"}; its cause holds the abandoned thread's
 * stack as it was at the limit. This extension, registered once for every test through {@code META-INF/services},
 * fails the test instead with the top frame of that stack in a student's file, for example
 * {@code the self-check's limit of 60 s was reached in LockService.acquire (LockService.java:14): an endless loop, or a
 * wait that never ends? This test checks: The first grant of a new lock service gets token 1}, that stack as its own,
 * and JUnit's exception as its cause. Every other failure passes through unchanged.
 */
public final class SelfCheckLimit implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {

    /** The files a student writes, relative to {@code src/main/java}: the only files the grader takes. */
    public static final List<String> STUDENT_FILES = List.of(
            "fencing/basics/LockService.java",
            "fencing/basics/Resource.java",
            "fencing/basics/NaiveResource.java",
            "fencing/basics/Fencing.java",
            "fencing/basics/Predictions.java",
            "fencing/basics/Quorum.java",
            "fencing/etcd/EtcdLockService.java",
            "fencing/etcd/EtcdOwnerCheck.java",
            "fencing/etcd/EpochLockService.java",
            "fencing/etcd/Recovery.java",
            "fencing/sink/FencedSink.java",
            "fencing/sink/OwnerCheckingSink.java",
            "fencing/sink/IdempotentLedger.java");

    /** The top-level class each student file holds; nested, local and anonymous classes are named after it. */
    private static final Set<String> STUDENT_CLASSES = STUDENT_FILES.stream()
            .map(file -> file.substring(0, file.length() - ".java".length()).replace('/', '.'))
            .collect(Collectors.toUnmodifiableSet());

    /** JUnit's own message at a limit, {@code "METHOD timed out after AMOUNT UNIT"}. */
    private static final Pattern TIMED_OUT = Pattern.compile("(?s).+ timed out after (\\d+) ([a-z]+)");

    /** A lambda's body compiles to a method {@code lambda$METHOD$N}: METHOD is the one a student wrote it in. */
    private static final Pattern LAMBDA = Pattern.compile("lambda\\$(.+)\\$\\d+");

    private static final Map<String, String> UNITS = Map.of("millisecond", "ms", "second", "s", "minute", "min", "hour", "h");

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        throw explain(thrown, context.getDisplayName());
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        throw explain(thrown, context.getDisplayName());
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        throw explain(thrown, context.getDisplayName());
    }

    @Override
    public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        throw explain(thrown, context.getDisplayName());
    }

    @Override
    public void handleAfterAllMethodExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        throw explain(thrown, context.getDisplayName());
    }

    /**
     * Returns what a test fails with when it threw {@code thrown}: a {@link TimeoutException} naming where the test was,
     * if {@code thrown} is JUnit's at a limit, and otherwise {@code thrown} itself.
     *
     * <p>A test's own {@code TimeoutException} (from {@code Future.get}, say) has another message, so it is left as it is.
     *
     * @param checks what the test checks, its display name
     */
    public static Throwable explain(Throwable thrown, String checks) {
        Matcher junit = thrown instanceof TimeoutException && thrown.getMessage() != null
                ? TIMED_OUT.matcher(thrown.getMessage()) : null;
        if (junit == null || !junit.matches()) {
            return thrown;
        }
        StackTraceElement[] stack = thrown.getCause() == null ? new StackTraceElement[0] : thrown.getCause().getStackTrace();
        Optional<StackTraceElement> students = Arrays.stream(stack).filter(SelfCheckLimit::isStudents).findFirst();
        String where;
        if (students.isPresent()) {
            where = " in " + frame(students.get()) + ": an endless loop, or a wait that never ends?";
        } else if (stack.length > 0) {
            where = " while the test was in " + frame(stack[0]) + ", not in a file you write: does it wait for code of"
                    + " yours that never finishes, on another thread?";
        } else {
            // Only a test run on its own thread (SEPARATE_THREAD) leaves a stack to read.
            where = ": an endless loop, or a wait that never ends?";
        }
        TimeoutException explained = new TimeoutException("the self-check's limit of " + limit(junit.group(1), junit.group(2))
                + " was reached" + where + " This test checks: " + checks);
        explained.initCause(thrown);
        if (stack.length > 0) {
            explained.setStackTrace(stack);
        }
        return explained;
    }

    private static boolean isStudents(StackTraceElement frame) {
        String name = frame.getClassName();
        int nested = name.indexOf('$');
        return STUDENT_CLASSES.contains(nested < 0 ? name : name.substring(0, nested));
    }

    /** Returns a frame as a student knows the code: {@code LockService.acquire (LockService.java:14)}. */
    private static String frame(StackTraceElement frame) {
        String type = frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1).replace('$', '.');
        String method = frame.getMethodName();
        Matcher lambda = LAMBDA.matcher(method);
        String code = switch (method) {
            case "<init>" -> "new " + type;
            case "<clinit>" -> type + "'s static initializer";
            default -> type + "." + (lambda.matches() ? lambda.group(1) : method);
        };
        String file = frame.getFileName() == null ? "unknown source" : frame.getFileName();
        return code + " (" + file + (frame.getLineNumber() > 0 ? ":" + frame.getLineNumber() : "") + ")";
    }

    /** Returns JUnit's {@code 60 seconds} as {@code 60 s}. */
    private static String limit(String amount, String unit) {
        String singular = unit.endsWith("s") ? unit.substring(0, unit.length() - 1) : unit;
        return amount + " " + UNITS.getOrDefault(singular, unit);
    }
}
