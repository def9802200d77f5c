package fencing.grader.pipeline;

import fencing.support.Channel;
import fencing.support.LoopbackBridge;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.slf4j.LoggerFactory;

/**
 * The submission's JVM: runs the selected tests and streams every test event to the grading process.
 *
 * <p>The grading process decides the score from these events and from its own copy of the tests;
 * nothing this JVM writes to disk is read back.
 */
public final class ChildRunner {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

    private ChildRunner() {
    }

    /**
     * Runs the tests listed in the file named by the first argument, one per line: a unique ID, or a group's name, a tab
     * and a unique ID. Each group's tests run one after the other, in JUnit's order, on a thread of their own, and the
     * groups side by side ({@link TestGroups}).
     *
     * @param args the file of tests
     */
    public static void main(String[] args) throws IOException {
        List<String> ids = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
        // In a network namespace of its own, the parent and etcd are reachable only through the bridge.
        LoopbackBridge.insideFromProperty();
        Channel channel = Channel.connectToParent(CONNECT_TIMEOUT);
        EventWriter events = new EventWriter(channel);
        // Before any test, so before any of the submission's code has run: the grader checks where its classes come from.
        String classList = System.getProperty(ClassOrigins.PROPERTY);
        events.send(new TestEvent.Loaded(classList == null ? java.util.Map.of()
                : ClassOrigins.locate(Path.of(classList), ChildRunner.class.getClassLoader())));

        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (String line : ids) {
            if (!line.isBlank()) {
                int tab = line.indexOf('\t');
                groups.computeIfAbsent(tab < 0 ? "" : line.substring(0, tab), group -> new ArrayList<>()).add(line.substring(tab + 1));
            }
        }
        // SLF4J, which jetcd, Netty, SQLite's driver and ArchUnit log through, is started here, once: started by the groups'
        // threads at once, it can fail in one of them (replaying a call another made meanwhile), and then every class that
        // logs fails to initialise in that JVM, so a grade's verdicts would depend on how its groups' starts fell together.
        LoggerFactory.getILoggerFactory();
        List<Thread> running = new ArrayList<>();
        for (Map.Entry<String, List<String>> group : groups.entrySet()) {
            Thread thread = new Thread(() -> execute(group.getValue(), events), "tests " + group.getKey());
            thread.start();
            running.add(thread);
        }
        for (Thread thread : running) {
            joinQuietly(thread);
        }
        events.done();
        channel.close();
        // A submission may leave threads or shutdown hooks behind; they must not keep this JVM alive.
        Thread halt = new Thread(() -> {
            sleepQuietly(2000);
            Runtime.getRuntime().halt(0);
        });
        halt.setDaemon(true);
        halt.start();
        System.exit(0);
    }

    /** Runs the tests of {@code ids} one after the other, in JUnit's order, on the calling thread. */
    private static void execute(List<String> ids, EventWriter events) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(ids.stream().map(DiscoverySelectors::selectUniqueId).toList())
                .filters(EngineFilter.includeEngines(TestSuite.JUPITER))
                // A test's limit is its CPU, measured and enforced from outside this JVM (Limits), never the wall clock here.
                .configurationParameter("junit.jupiter.execution.timeout.mode", "disabled")
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "false")
                .build();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, events);
    }

    private static void joinQuietly(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sends one message per event; the channel serializes sends, because a submission's threads may report too. */
    private static final class EventWriter implements TestExecutionListener {

        private final Channel channel;

        EventWriter(Channel channel) {
            this.channel = channel;
        }

        @Override
        public void executionStarted(TestIdentifier test) {
            send(new TestEvent.Started(test.getUniqueId()));
        }

        @Override
        public void executionSkipped(TestIdentifier test, String reason) {
            send(new TestEvent.Skipped(test.getUniqueId(), reason));
        }

        @Override
        public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            Throwable thrown = result.getThrowable().orElse(null);
            send(new TestEvent.Finished(test.getUniqueId(), result.getStatus().name(),
                    thrown == null ? null : describe(thrown), thrown == null ? null : trace(thrown)));
        }

        void done() {
            send(new TestEvent.Done());
        }

        private void send(TestEvent event) {
            try {
                channel.send(event);
            } catch (IOException e) {
                throw new UncheckedIOException("the grading process stopped listening", e);
            }
        }

        private static String describe(Throwable thrown) {
            String type = thrown.getClass().getName();
            String message = thrown.getMessage() == null ? "" : thrown.getMessage();
            if (thrown instanceof AssertionError && !message.isEmpty()) {
                return withoutFrameworkFrames(message);
            }
            return type + (message.isEmpty() ? "" : ": " + withoutFrameworkFrames(message));
        }

        /** Keeps, of a stack trace quoted in a message, only the frames of the kit's and the student's code. */
        private static String withoutFrameworkFrames(String message) {
            return message.lines()
                    .filter(line -> !line.matches("\\s*at (?!fencing\\.).*") && !line.matches("\\s*\\.\\.\\.\\(\\d+ remaining lines.*"))
                    .collect(java.util.stream.Collectors.joining("\n"));
        }

        /**
         * Returns the failure's stack trace, cut to 4,000 characters; where it was cut, each cause's first line follows, so
         * that what the grader looks for in a cause (a stub's words, a timeout) is never cut away.
         */
        private static String trace(Throwable thrown) {
            StringWriter text = new StringWriter();
            thrown.printStackTrace(new PrintWriter(text));
            String full = text.toString();
            if (full.length() <= 4000) {
                return full;
            }
            StringBuilder cut = new StringBuilder(full.substring(0, 4000)).append("\n\t...");
            Throwable cause = thrown.getCause();
            for (int depth = 0; cause != null && depth < 10; depth++, cause = cause.getCause()) {
                String line = cause.toString();
                cut.append("\nCaused by: ").append(line, 0, Math.min(line.length(), 300));
            }
            return cut.toString();
        }
    }
}
