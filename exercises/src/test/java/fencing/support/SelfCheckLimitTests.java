package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.selfcheck.SelfCheckLimit;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The self-check's limit: a public test stuck in a student's code fails at the limit, naming the method it was stuck in,
 * and the run goes on and ends.
 */
@Timeout(120)
class SelfCheckLimitTests {

    /** A {@code LockService} whose {@code acquire} never returns, and never looks at an interrupt either. */
    private static final String ENDLESS_LOCK_SERVICE = String.join("\n",
            "package fencing.basics;",
            "",
            "public final class LockService {",
            "    public long acquire(String client) {",
            "        while (true) {",
            "        }",
            "    }",
            "}",
            "");

    /** The line of the loop in {@link #ENDLESS_LOCK_SERVICE}. */
    private static final int LOOP_LINE = 5;

    /** How long the whole run may take: a JVM's start and a test's limit of 1 s, with room for a busy machine. */
    private static final Duration RUN = Duration.ofSeconds(60);

    private static final String FIRST_GRANT = "The first grant of a new lock service gets token 1";

    @Test
    @DisplayName("A public test whose LockService.acquire loops endlessly fails at the self-check's limit, naming"
            + " LockService.acquire and its line, and the run ends")
    void endlessAcquireFailsAtTheLimitNamingIt(@TempDir Path dir) throws Exception {
        Path endless = compile(dir, ENDLESS_LOCK_SERVICE);
        Path log = dir.resolve("run.log");

        // The endless class comes first on the class path, where a submission's classes shadow the stubs.
        try (Supervised run = ChildJvm.of(SelfCheckRun.class)
                .classPath(endless + File.pathSeparator + System.getProperty("java.class.path"))
                .systemProperty("junit.jupiter.execution.timeout.default", "1 s")
                .args("fencing.basics.LockServiceTests#firstGrantGetsTokenOne")
                .log(log).start("self-check run")) {
            assertThat(run.awaitExit(RUN))
                    .as("a self-check run of one test whose acquire loops endlessly, its limit 1 s, ends within %s;"
                            + " it printed:%n%s", RUN, Files.readString(log)).isTrue();
        }
        List<String> output = Files.readAllLines(log, StandardCharsets.UTF_8);

        assertThat(output).as("the run's report of the tests it started").contains("STARTED\t1");
        assertThat(output).as("the run's report of the failed test, whose acquire loops endlessly at LockService.java:%d",
                        LOOP_LINE)
                .contains(String.join("\t", "FAILED", FIRST_GRANT, TimeoutException.class.getName(),
                        "the self-check's limit of 1 s was reached in LockService.acquire (LockService.java:" + LOOP_LINE
                                + "): an endless loop, or a wait that never ends? This test checks: " + FIRST_GRANT,
                        "fencing.basics.LockService.acquire(LockService.java:" + LOOP_LINE + ")"));
    }

    @Test
    @DisplayName("At the limit outside the student's files, the message names where the test waited, and says so")
    void limitOutsideTheStudentsFilesNamesWhereTheTestWaited() {
        Throwable junit = junitTimeout("waitsForAFuture() timed out after 60 seconds",
                new StackTraceElement("java.util.concurrent.FutureTask", "get", "FutureTask.java", 204),
                new StackTraceElement("fencing.basics.LockServiceTests", "waitsForAFuture", "LockServiceTests.java", 61));

        Throwable explained = SelfCheckLimit.explain(junit, "Threads acquiring at once never get the same token");

        assertThat(explained.getMessage()).as("the failure of a test stuck in FutureTask.get at its limit of 60 s")
                .isEqualTo("the self-check's limit of 60 s was reached while the test was in FutureTask.get"
                        + " (FutureTask.java:204), not in a file you write: does it wait for code of yours that never"
                        + " finishes, on another thread? This test checks: Threads acquiring at once never get the same token");
        assertThat(explained.getCause()).as("the cause of the failure: JUnit's own exception").isSameAs(junit);
    }

    @Test
    @DisplayName("A student's lambda, constructor and nested class are named as the student wrote them")
    void namesLambdasConstructorsAndNestedClassesAsWritten() {
        assertThat(whereStuck(new StackTraceElement("fencing.sink.FencedSink", "lambda$write$0", "FencedSink.java", 40)))
                .as("a frame in a lambda inside FencedSink.write").contains("reached in FencedSink.write (FencedSink.java:40):");
        assertThat(whereStuck(new StackTraceElement("fencing.sink.FencedSink", "<init>", "FencedSink.java", 21)))
                .as("a frame in FencedSink's constructor").contains("reached in new FencedSink (FencedSink.java:21):");
        assertThat(whereStuck(new StackTraceElement("fencing.basics.LockService$Counter", "next", "LockService.java", 9),
                new StackTraceElement("fencing.basics.LockService", "acquire", "LockService.java", 30)))
                .as("a frame in a class nested in LockService, above LockService.acquire")
                .contains("reached in LockService.Counter.next (LockService.java:9):");
    }

    @Test
    @DisplayName("Every failure but JUnit's at a limit, a test's own TimeoutException among them, passes through unchanged")
    void otherFailuresPassThroughUnchanged() {
        TimeoutException futureGet = new TimeoutException();
        AssertionError assertion = new AssertionError("a write with token 7 after token 8 must be rejected");
        UnsupportedOperationException stub = new UnsupportedOperationException("Not implemented yet: LockService.acquire");

        assertThat(SelfCheckLimit.explain(futureGet, "a test")).as("a test's own TimeoutException, from Future.get").isSameAs(futureGet);
        assertThat(SelfCheckLimit.explain(assertion, "a test")).as("a failed assertion").isSameAs(assertion);
        assertThat(SelfCheckLimit.explain(stub, "a test")).as("a stub's exception").isSameAs(stub);
    }

    private static String whereStuck(StackTraceElement... stack) {
        return SelfCheckLimit.explain(junitTimeout("aTest() timed out after 60 seconds", stack), "a test").getMessage();
    }

    /** Returns an exception shaped as JUnit's at a limit: its cause holds the abandoned thread's stack. */
    private static TimeoutException junitTimeout(String message, StackTraceElement... stack) {
        RuntimeException thread = new RuntimeException("Execution timed out in thread junit-timeout-thread-1");
        thread.setStackTrace(stack);
        TimeoutException junit = new TimeoutException(message);
        junit.initCause(thread);
        return junit;
    }

    /** Compiles {@code source}, a class of {@code fencing.basics}, and returns the folder of its class file. */
    private static Path compile(Path dir, String source) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK's compiler, to compile the endless LockService (a JRE has none)").isNotNull();
        Path file = Files.createDirectories(dir.resolve("src")).resolve("LockService.java");
        Files.writeString(file, source, StandardCharsets.UTF_8);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status = javac.run(null, errors, errors, "-d", classes.toString(), file.toString());
        assertThat(status).as("javac's exit code on the endless LockService; it said:%n%s",
                errors.toString(StandardCharsets.UTF_8)).isZero();
        return classes;
    }
}
