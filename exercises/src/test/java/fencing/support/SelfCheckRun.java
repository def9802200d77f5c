package fencing.support;

import java.util.Arrays;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * A child JVM that runs the test methods its arguments name ({@code CLASS#METHOD}) as {@code ./kit check} runs them, and
 * prints what came of them.
 *
 * <p>It prints one line per failed test, {@code FAILED} and then, separated by tabs, the test's display name, the
 * exception's class, its message and the top frame of its stack; then {@code STARTED} and how many tests started. The
 * self-check's {@code junit-platform.properties} comes from the class path, and system properties override it, as in
 * surefire's forked JVM. Like that JVM it ends with {@link System#exit} once the tests have run, since a test's thread
 * abandoned at its limit may still be running.
 */
final class SelfCheckRun {

    private SelfCheckRun() {
    }

    public static void main(String[] args) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(Arrays.stream(args).map(DiscoverySelectors::selectMethod).toList()).build(), listener);
        TestExecutionSummary summary = listener.getSummary();
        for (TestExecutionSummary.Failure failure : summary.getFailures()) {
            Throwable thrown = failure.getException();
            StackTraceElement[] stack = thrown.getStackTrace();
            System.out.println(String.join("\t", "FAILED", failure.getTestIdentifier().getDisplayName(),
                    thrown.getClass().getName(), String.valueOf(thrown.getMessage()).replace("\n", "\\n"),
                    stack.length == 0 ? "" : frame(stack[0])));
        }
        System.out.println("STARTED\t" + summary.getTestsStartedCount());
        System.out.flush();
        System.exit(0);
    }

    /** Returns {@code CLASS.METHOD(FILE:LINE)}, without the class loader's name that {@link StackTraceElement#toString} may add. */
    private static String frame(StackTraceElement frame) {
        return frame.getClassName() + "." + frame.getMethodName() + "(" + frame.getFileName() + ":" + frame.getLineNumber() + ")";
    }
}
