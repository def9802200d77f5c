package fencing.lab.worker;

import fencing.lab.sink.Mode;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;

/** What the runner tells worker A to do. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = WorkerCommand.Acquire.class, name = "acquire"),
    @JsonSubTypes.Type(value = WorkerCommand.Write.class, name = "write"),
    @JsonSubTypes.Type(value = WorkerCommand.Exit.class, name = "exit"),
    @JsonSubTypes.Type(value = WorkerCommand.Loop.class, name = "loop")})
public sealed interface WorkerCommand {

    /** Take the lock, keep its lease alive, and read each of {@code modes} once, then say {@link WorkerReport.Ready}. */
    record Acquire(List<Mode> modes) implements WorkerCommand {
    }

    /** Write {@code value} with the token held to each of {@code modes} at once, without checking the lease. */
    record Write(String value, List<Mode> modes) implements WorkerCommand {
    }

    /** A chaos writer's one command: loop until {@code untilMicros}, writing {@code values} values to each of {@code modes} per hold. */
    record Loop(long untilMicros, int values, List<Mode> modes) implements WorkerCommand {
    }

    /** End, saying {@link WorkerReport.Bye}. */
    record Exit() implements WorkerCommand {
    }
}
