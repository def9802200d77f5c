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
    @JsonSubTypes.Type(value = WorkerCommand.AcquireTimed.class, name = "acquire-timed"),
    @JsonSubTypes.Type(value = WorkerCommand.WriteIfTimerSaysValid.class, name = "write-if-timer-says-valid"),
    @JsonSubTypes.Type(value = WorkerCommand.Exit.class, name = "exit"),
    @JsonSubTypes.Type(value = WorkerCommand.Loop.class, name = "loop")})
public sealed interface WorkerCommand {

    /** Take the lock, keep its lease alive, and read each of {@code modes} once, then say {@link WorkerReport.Ready}. */
    record Acquire(List<Mode> modes) implements WorkerCommand {
    }

    /**
     * Take the lock without keeping its lease alive, start a timer of one TTL on a clock running at {@code clockRate}
     * times the machine's, read each of {@code modes} once, then say {@link WorkerReport.Ready}.
     */
    record AcquireTimed(List<Mode> modes, double clockRate) implements WorkerCommand {
    }

    /**
     * Read the lease timer, say {@link WorkerReport.TimerChecked}, and only if the timer says the lease is valid write
     * {@code value} with the token held to each of {@code modes}, as {@link Write} does.
     */
    record WriteIfTimerSaysValid(String value, List<Mode> modes) implements WorkerCommand {
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
