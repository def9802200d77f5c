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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The grader's own client on the shared etcd: it reads back what the lock service did. */
final class EtcdProbe implements AutoCloseable {

    private static final long TIMEOUT_SECONDS = 5;

    private final Etcd etcd;
    private final Client client;
    private final String unrelatedKey = Etcd.uniqueKey("unrelated");

    private EtcdProbe(Etcd etcd, Client client) {
        this.etcd = etcd;
        this.client = client;
    }

    /** Connects to this JVM's etcd. */
    static EtcdProbe connect() {
        Etcd etcd = Etcd.shared();
        return new EtcdProbe(etcd, etcd.newClient());
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
        List<KeyValue> kvs = await(client.getKVClient().get(bytes(key))).getKvs();
        return kvs.isEmpty() ? Optional.empty() : Optional.of(kvs.get(0));
    }

    /** Writes an unrelated key {@code count} times, so that etcd's revision moves on. */
    void unrelatedWrites(int count) {
        for (int i = 0; i < count; i++) {
            await(client.getKVClient().put(bytes(unrelatedKey), bytes("write " + i)));
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
        await(client.getLeaseClient().revoke(leaseId));
    }

    /** Returns the lease's remaining time to live in seconds, or -1 if etcd no longer has it. */
    long timeToLive(long leaseId) {
        return await(client.getLeaseClient().timeToLive(leaseId, LeaseOption.DEFAULT)).getTTL();
    }

    static String text(ByteSequence bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }

    static <T> T await(CompletableFuture<T> call) {
        try {
            return call.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for etcd", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the grader's etcd call failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            call.cancel(true);
            throw new IllegalStateException("etcd did not answer the grader within " + TIMEOUT_SECONDS + " s", e);
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
