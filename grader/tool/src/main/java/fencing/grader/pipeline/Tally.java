package fencing.grader.pipeline;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What one test JVM's events say about the tests it was given: which one is running, since when, and how each that
 * ended went; the results go into the run's shared map, so that a JVM started after this one runs only what is left.
 */
final class Tally {

    private final Map<String, TestCase> byId;
    private final Map<String, TestResult> results;
    private final Map<String, Long> started = new LinkedHashMap<>();
    private final Map<String, Long> containers = new LinkedHashMap<>();
    private final Map<String, String> failures = new LinkedHashMap<>();
    /** The tests, and the classes whose set-up failed, that failed on a time bound ({@link #TIME_BOUND}). */
    private final java.util.Set<String> timedOut = new java.util.HashSet<>();

    /**
     * What a failure that a time bound ended says of itself: a call's timeout ({@code TimeoutException}), gRPC's {@code
     * DEADLINE_EXCEEDED}, etcd's own ("etcdserver: request timed out", when a starved etcd could not commit a request in
     * time), a lease's ("etcdserver: requested lease not found": etcd expires a lease on its own clock, and a starved etcd
     * expires one whose keep-alives it had no CPU to read), or SQLite's {@code SQLITE_BUSY} once a busy timeout ran out. On a
     * starved machine such a bound can run out for that alone.
     */
    static final java.util.regex.Pattern TIME_BOUND = java.util.regex.Pattern.compile("TimeoutException|DEADLINE_EXCEEDED"
            + "|etcdserver: request timed out|etcdserver: requested lease not found|SQLITE_BUSY");

    Tally(List<TestCase> tests, Map<String, TestResult> results) {
        this.byId = tests.stream().collect(Collectors.toMap(TestCase::uniqueId, Function.identity()));
        this.results = results;
    }

    /** Returns the test of {@code id}, or {@code null} when {@code id} is not a test's (a class's, say). */
    TestCase test(String id) {
        return id == null ? null : byId.get(id);
    }

    /**
     * Returns the unique ID of the class a test belongs to: the first two segments of its own
     * ({@code [engine:junit-jupiter]/[class:...]}), so that a nested class's tests count with their outer class.
     */
    static String classOf(TestCase test) {
        String id = test.uniqueId();
        int second = id.indexOf("/[", id.indexOf("/[") + 2);
        return second < 0 ? id : id.substring(0, second);
    }

    /**
     * Returns the innermost class container that started and has not finished and still has tests without a result,
     * when no test is running: the JVM is in that class's set-up or tear-down.
     *
     * <p>The engine's own container is no class: a JVM that ends with only it open ended between classes, and no class
     * is to blame.
     */
    Optional<String> runningClass() {
        String found = null;
        for (String id : containers.keySet()) {
            if (!isEngine(id) && byId.values().stream()
                    .anyMatch(test -> test.uniqueId().startsWith(id + "/") && !results.containsKey(test.uniqueId()))) {
                found = id;
            }
        }
        return Optional.ofNullable(found);
    }

    /** Whether {@code id} is a test engine's root container ({@code [engine:junit-jupiter]}), which holds every class. */
    private static boolean isEngine(String id) {
        return !id.contains("/[");
    }

    /**
     * Returns every test that started and has not finished, and every class in its set-up or tear-down, when the JVM runs
     * several groups of tests side by side: a class (not the engine's container) that started, still has tests without a
     * result, and none of whose tests is running, as each is measured on its own.
     */
    java.util.Set<String> allRunning() {
        java.util.Set<String> running = new java.util.LinkedHashSet<>();
        started.keySet().stream().filter(byId::containsKey).forEach(running::add);
        containers.keySet().stream().filter(id -> !isEngine(id)
                        && running.stream().noneMatch(test -> test.startsWith(id + "/"))
                        && byId.values().stream().anyMatch(test -> test.uniqueId().startsWith(id + "/")
                                && !results.containsKey(test.uniqueId())))
                .forEach(running::add);
        return running;
    }

    /** Whether {@code id} is a test, or a class whose set-up or tear-down, failed on a time bound ({@link #TIME_BOUND}). */
    boolean failedOnATimeBound(String id) {
        return timedOut.contains(id);
    }

    /** Returns the test that started and has not finished, if any. */
    Optional<String> running() {
        return started.keySet().stream().filter(byId::containsKey).findFirst();
    }

    /** Returns how long the running test {@code id} has been running, in nanoseconds. */
    long nanosRunning(String id) {
        return System.nanoTime() - started.get(id);
    }

    /** Records one event from the test JVM. */
    void record(TestEvent event) {
        if (event instanceof TestEvent.Started s) {
            if (byId.containsKey(s.id())) {
                started.put(s.id(), System.nanoTime());
            } else {
                containers.put(s.id(), System.nanoTime());
            }
        } else if (event instanceof TestEvent.Skipped s) {
            TestCase test = byId.get(s.id());
            if (test != null) {
                results.put(s.id(), new TestResult(test, false, "skipped: " + s.message(), 0));
            }
        } else if (event instanceof TestEvent.Finished f) {
            finished(f);
        } else {
            throw new IllegalStateException("unexpected test event: " + event);
        }
    }

    /** Fails the running test {@code id} with {@code message}, because its JVM ended or was ended during it, and returns it. */
    TestCase failRunning(String id, String message) {
        TestCase test = byId.get(id);
        results.put(id, new TestResult(test, false, message, nanosRunning(id) / 1_000_000));
        return test;
    }

    /**
     * Fails every test of the container {@code id} that has no result yet with {@code message}, because its JVM ended or
     * was ended outside any of its tests, and returns how many.
     */
    int failClass(String id, String message) {
        List<TestCase> left = byId.values().stream()
                .filter(test -> test.uniqueId().startsWith(id + "/") && !results.containsKey(test.uniqueId())).toList();
        left.forEach(test -> results.put(test.uniqueId(), new TestResult(test, false, message, 0)));
        return left.size();
    }

    private void finished(TestEvent.Finished event) {
        String id = event.id();
        containers.remove(id);
        TestCase test = byId.get(id);
        String status = event.status();
        if (!status.equals("SUCCESSFUL")) {
            failures.putIfAbsent(id, message(status, Stubs.named(event.message() == null ? "" : event.message(), event.trace())));
            if (TIME_BOUND.matcher((event.message() == null ? "" : event.message()) + "\n" + (event.trace() == null ? "" : event.trace())).find()) {
                timedOut.add(id);
            }
        }
        if (test != null && started.containsKey(id)) {
            long millis = (System.nanoTime() - started.remove(id)) / 1_000_000;
            // A template passes only if none of its invocations failed.
            Optional<String> failure = failures.entrySet().stream()
                    .filter(entry -> entry.getKey().equals(id) || entry.getKey().startsWith(id + "/"))
                    .map(Map.Entry::getValue).findFirst();
            results.put(id, new TestResult(test, failure.isEmpty(), failure.orElse(""), millis));
        } else if (test == null && !status.equals("SUCCESSFUL")) {
            // A class whose set-up failed: its tests never start, and fail with the class's error.
            byId.values().stream()
                    .filter(t -> t.uniqueId().startsWith(id + "/") && !results.containsKey(t.uniqueId()))
                    .forEach(t -> results.put(t.uniqueId(), new TestResult(t, false, failures.get(id), 0)));
        }
    }

    private static String message(String status, String message) {
        return status.equals("ABORTED") ? "aborted: " + message : message;
    }
}
