package fencing.support;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/** What {@link EtcdProbe} tells the test that started it. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = EtcdProbeMessage.Provided.class, name = "provided"),
    @JsonSubTypes.Type(value = EtcdProbeMessage.Holding.class, name = "holding"),
    @JsonSubTypes.Type(value = EtcdProbeMessage.Done.class, name = "done")})
sealed interface EtcdProbeMessage {

    /**
     * The probe got an etcd from {@link Etcd#provide()}.
     *
     * @param pid     the pid of the etcd it started, or {@code null} when it started none
     * @param workDir the data directory of that etcd, or {@code null}
     */
    record Provided(String endpoints, String origin, Long pid, String workDir) implements EtcdProbeMessage {
    }

    /** The probe holds its etcd until it is killed. */
    record Holding() implements EtcdProbeMessage {
    }

    /** The probe wrote its key and closed its etcd. */
    record Done() implements EtcdProbeMessage {
    }
}
