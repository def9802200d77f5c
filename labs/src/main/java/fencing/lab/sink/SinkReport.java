package fencing.lab.sink;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/** What a sink server started by the lab's runner tells it over their channel. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = SinkReport.Listening.class, name = "listening"),
    @JsonSubTypes.Type(value = SinkReport.Failed.class, name = "failed")})
public sealed interface SinkReport {

    /** The server answers on {@code port}; {@code notImplementedYet} names the sinks that are still stubs. */
    record Listening(long pid, int port, long startedAtMicros, java.util.List<String> notImplementedYet) implements SinkReport {
    }

    /** The server could not start. */
    record Failed(String exception, String message) implements SinkReport {
    }
}
