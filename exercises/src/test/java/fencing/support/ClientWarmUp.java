package fencing.support;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.LeaseOption;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** Readies a jetcd client before a measurement. */
final class ClientWarmUp {

    private ClientWarmUp() {
    }

    /**
     * Makes one call of each kind the lease measurements use.
     *
     * <p>A fresh client's first calls take seconds on a busy machine (class loading, connection set-up);
     * without this, that time would be counted as the lease's.
     */
    static void warmUp(Client client) throws Exception {
        ByteSequence probe = ByteSequence.from(Etcd.uniqueKey("warm-up"), StandardCharsets.UTF_8);
        client.getKVClient().put(probe, probe).get(5, TimeUnit.SECONDS);
        client.getKVClient().get(probe).get(5, TimeUnit.SECONDS);
        client.getKVClient().delete(probe).get(5, TimeUnit.SECONDS);
        long lease = client.getLeaseClient().grant(60).get(5, TimeUnit.SECONDS).getID();
        client.getLeaseClient().timeToLive(lease, LeaseOption.DEFAULT).get(5, TimeUnit.SECONDS);
        client.getLeaseClient().revoke(lease).get(5, TimeUnit.SECONDS);
    }
}
