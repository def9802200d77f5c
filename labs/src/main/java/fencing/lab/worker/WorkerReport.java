package fencing.lab.worker;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import fencing.lab.sink.Exchange;

/** What worker A tells the runner; times are epoch microseconds, the same clock in every process of the lab. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = WorkerReport.Started.class, name = "started"),
    @JsonSubTypes.Type(value = WorkerReport.Ready.class, name = "ready"),
    @JsonSubTypes.Type(value = WorkerReport.KeepAlive.class, name = "keepalive"),
    @JsonSubTypes.Type(value = WorkerReport.KeepAliveEnded.class, name = "keepalive-ended"),
    @JsonSubTypes.Type(value = WorkerReport.LeaseLost.class, name = "lease-lost"),
    @JsonSubTypes.Type(value = WorkerReport.TimerChecked.class, name = "timer-checked"),
    @JsonSubTypes.Type(value = WorkerReport.Called.class, name = "exchange"),
    @JsonSubTypes.Type(value = WorkerReport.Wrote.class, name = "wrote"),
    @JsonSubTypes.Type(value = WorkerReport.Failed.class, name = "error"),
    @JsonSubTypes.Type(value = WorkerReport.Bye.class, name = "bye")})
public sealed interface WorkerReport {

    /** Connected to etcd and the sink, ready to be told to acquire. */
    record Started(long pid, long processStartMicros, long startUpMillis) implements WorkerReport {
    }

    /**
     * Holds the lock, keeps its lease alive and has read the sink; {@code firstKeepAliveAtMicros} is when A took the lock
     * for a lease A does not keep alive ({@link WorkerCommand.AcquireTimed}).
     */
    record Ready(String owner, long token, long leaseId, long ttl, String key, long askedAtMicros, long acquiredAtMicros,
                 long firstKeepAliveAtMicros, long readyAtMicros) implements WorkerReport {
    }

    /** etcd renewed the lease to {@code ttl} seconds. */
    record KeepAlive(long leaseId, long ttl, long atMicros) implements WorkerReport {
    }

    /** jetcd stopped keeping the lease alive. */
    record KeepAliveEnded(long leaseId, long atMicros) implements WorkerReport {
    }

    /** jetcd says the lease is gone. */
    record LeaseLost(long leaseId, String error, long atMicros) implements WorkerReport {
    }

    /**
     * A read its lease timer before writing.
     *
     * @param clockRate          how fast A's clock runs against the machine's
     * @param realElapsedMicros  from asking for the lock to the check, on the lab's shared clock: recorded, never decided on
     * @param localElapsedMicros the same stretch on A's own clock, which the decision rests on
     * @param saysValid          whether A's timer said the lease was still valid, so that A writes
     */
    record TimerChecked(long leaseId, double clockRate, long ttlMillis, long atMicros, long realElapsedMicros, long localElapsedMicros,
                        boolean saysValid) implements WorkerReport {
    }

    /** One call to the sink. */
    record Called(Exchange exchange) implements WorkerReport {
    }

    /** A write command is done: {@code accepted} of its modes took it. */
    record Wrote(String value, long token, int accepted, long atMicros) implements WorkerReport {
    }

    /** The worker failed and ends. */
    record Failed(String exception, String message) implements WorkerReport {
    }

    /** The worker ends, for {@code reason}. */
    record Bye(String reason) implements WorkerReport {
    }
}
