package fencing.grader;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The submission's JVM: runs the selected tests and streams every test event to the grading process.
 *
 * <p>The grading process decides the score from these events and from its own copy of the tests;
 * nothing this JVM writes to disk is read back.
 */
public final class ChildRunner {

    /** System property with the grading process's loopback port. */
    static final String PORT_PROPERTY = "fencing.grader.port";
    /** System property with the per-test timeout, in seconds. */
    static final String TIMEOUT_PROPERTY = "fencing.grader.testTimeoutSeconds";

    private ChildRunner() {
    }

    /**
     * Runs the tests whose unique IDs are listed, one per line, in the file named by the first argument.
     *
     * @param args the file of unique IDs
     */
    public static void main(String[] args) throws IOException {
        List<String> ids = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
        int port = Integer.parseInt(System.getProperty(PORT_PROPERTY));
        String timeout = System.getProperty(TIMEOUT_PROPERTY, "10");
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        EventWriter events = new EventWriter(new BufferedWriter(
                new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8)));

        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(ids.stream().filter(id -> !id.isBlank()).map(DiscoverySelectors::selectUniqueId).toList())
                .configurationParameter("junit.jupiter.execution.timeout.default", timeout + " s")
                .configurationParameter("junit.jupiter.execution.timeout.thread.mode.default", "SEPARATE_THREAD")
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "false")
                .build();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, events);
        events.done();
        socket.close();
        // A submission may leave threads or shutdown hooks behind; they must not keep this JVM alive.
        Thread halt = new Thread(() -> {
            sleepQuietly(2000);
            Runtime.getRuntime().halt(0);
        });
        halt.setDaemon(true);
        halt.start();
        System.exit(0);
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sends one JSON line per event; synchronized because tests may finish on timeout threads. */
    private static final class EventWriter implements TestExecutionListener {

        private final ObjectMapper json = new ObjectMapper();
        private final BufferedWriter out;

        EventWriter(BufferedWriter out) {
            this.out = out;
        }

        @Override
        public void executionStarted(TestIdentifier test) {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("event", "started");
            event.put("id", test.getUniqueId());
            send(event);
        }

        @Override
        public void executionSkipped(TestIdentifier test, String reason) {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("event", "skipped");
            event.put("id", test.getUniqueId());
            event.put("message", reason);
            send(event);
        }

        @Override
        public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("event", "finished");
            event.put("id", test.getUniqueId());
            event.put("status", result.getStatus().name());
            result.getThrowable().ifPresent(thrown -> {
                event.put("message", describe(thrown));
                event.put("trace", trace(thrown));
            });
            send(event);
        }

        void done() {
            send(Map.of("event", "done"));
        }

        private synchronized void send(Map<String, ?> event) {
            try {
                out.write(json.writeValueAsString(event));
                out.write('\n');
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("the grading process stopped listening", e);
            }
        }

        private static String describe(Throwable thrown) {
            if (thrown instanceof TimeoutException) {
                return "timeout: " + thrown.getMessage();
            }
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

        private static String trace(Throwable thrown) {
            StringWriter text = new StringWriter();
            thrown.printStackTrace(new PrintWriter(text));
            String full = text.toString();
            return full.length() > 4000 ? full.substring(0, 4000) + "\n\t..." : full;
        }
    }
}
