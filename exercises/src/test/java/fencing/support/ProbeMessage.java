package fencing.support;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;

/** What {@link ChannelProbe} and the tests say to each other. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ProbeMessage.Hello.class, name = "hello"),
    @JsonSubTypes.Type(value = ProbeMessage.Say.class, name = "say"),
    @JsonSubTypes.Type(value = ProbeMessage.Echo.class, name = "echo"),
    @JsonSubTypes.Type(value = ProbeMessage.Started.class, name = "started"),
    @JsonSubTypes.Type(value = ProbeMessage.Bye.class, name = "bye")})
sealed interface ProbeMessage {

    /** The child's first message: its pid and the JVM flags it runs with. */
    record Hello(long pid, List<String> jvmFlags) implements ProbeMessage {
    }

    /** Asks the child to echo {@code text}. */
    record Say(String text) implements ProbeMessage {
    }

    /** The child's echo. */
    record Echo(String text) implements ProbeMessage {
    }

    /** A child that started a child of its own says its pid. */
    record Started(long pid) implements ProbeMessage {
    }

    /** Tells the child to end. */
    record Bye() implements ProbeMessage {
    }
}
