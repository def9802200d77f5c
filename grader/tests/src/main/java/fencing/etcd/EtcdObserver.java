package fencing.etcd;

import fencing.support.Etcd;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.LeaseOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The grader's own client on the shared etcd: it reads back what the lock service did. */
final class EtcdObserver implements AutoCloseable {


    private final Etcd etcd;
    private final Client client;
    private final String unrelatedKey = Etcd.uniqueKey("unrelated");

    private EtcdObserver(Etcd etcd, Client client) {
        this.etcd = etcd;
        this.client = client;
    }

    /** Connects to this JVM's etcd. */
    static EtcdObserver connect() {
        Etcd etcd = Etcd.shared();
        return new EtcdObserver(etcd, etcd.newClient());
    }

    Etcd etcd() {
        return etcd;
    }

    /** Returns a new client on the same etcd, as another process would have; the caller closes it. */
    Client newClient() {
        return etcd.newClient();
    }

    /** Returns the grader's client, for wrapping in an {@link ObservedClient}. */
    Client client() {
        return client;
    }

    /** Reads {@code key} as etcd holds it now. */
    Optional<KeyValue> read(String key) {
        List<KeyValue> kvs = Etcd.await(client.getKVClient().get(bytes(key))).getKvs();
        return kvs.isEmpty() ? Optional.empty() : Optional.of(kvs.get(0));
    }

    /** Writes an unrelated key {@code count} times, so that etcd's revision moves on. */
    void unrelatedWrites(int count) {
        for (int i = 0; i < count; i++) {
            Etcd.await(client.getKVClient().put(bytes(unrelatedKey), bytes("write " + i)));
        }
    }

    /** Waits up to {@code limit} for {@code key} to disappear; returns whether it did. */
    boolean awaitGone(String key, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (read(key).isEmpty()) {
                return true;
            }
            Thread.sleep(50);
        }
        return read(key).isEmpty();
    }

    /** Revokes {@code leaseId} now, as its expiry would: etcd deletes the keys attached to it. */
    void revoke(long leaseId) {
        Etcd.await(client.getLeaseClient().revoke(leaseId));
    }

    /** Returns the lease's remaining time to live in seconds, or -1 if etcd no longer has it. */
    long timeToLive(long leaseId) {
        return Etcd.await(client.getLeaseClient().timeToLive(leaseId, LeaseOption.DEFAULT)).getTTL();
    }

    static String text(ByteSequence bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        client.close();
    }
}
