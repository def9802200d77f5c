package fencing.grader.pipeline;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/** What the submission's JVM ({@link ChildRunner}) tells the grading process ({@link ForkedRun}), one message per test event. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "event")
@JsonSubTypes({
    @JsonSubTypes.Type(value = TestEvent.Loaded.class, name = "loaded"),
    @JsonSubTypes.Type(value = TestEvent.Started.class, name = "started"),
    @JsonSubTypes.Type(value = TestEvent.Skipped.class, name = "skipped"),
    @JsonSubTypes.Type(value = TestEvent.Finished.class, name = "finished"),
    @JsonSubTypes.Type(value = TestEvent.Done.class, name = "done")})
public sealed interface TestEvent {

    /**
     * Where the test JVM loaded each of the submission's classes from, sent before any test runs ({@link ClassOrigins}).
     *
     * @param locations each class's binary name and its code source's location, or why it has none
     */
    record Loaded(java.util.Map<String, String> locations) implements TestEvent {
    }

    /** A test or container with JUnit's unique ID {@code id} started. */
    record Started(String id) implements TestEvent {
    }

    /** A test or container was skipped, for {@code message}. */
    record Skipped(String id, String message) implements TestEvent {
    }

    /**
     * A test or container finished.
     *
     * @param status  JUnit's status: {@code SUCCESSFUL}, {@code FAILED} or {@code ABORTED}
     * @param message what failed, or {@code null}
     * @param trace   the failure's stack trace, shortened, or {@code null}
     */
    record Finished(String id, String status, String message, String trace) implements TestEvent {
    }

    /** Every selected test has run. */
    record Done() implements TestEvent {
    }
}
