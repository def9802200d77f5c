package fencing.etcd;

import fencing.support.Etcd;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The grader's own client on the shared etcd, which reads back what the lock service did: register it as
 * {@code @RegisterExtension static final EtcdObserver etcd = new EtcdObserver();}.
 *
 * <p>Before the class's first test it connects to {@link Etcd#shared()}, which the first etcd class in a JVM may start
 * itself (etcd has up to 30 s to become healthy), and warms its client up; after the class's last test it closes the client.
 */
final class EtcdObserver implements BeforeAllCallback, AfterAllCallback {

    /**
     * The lease TTL a test gives a lock whose lease must outlive the test: an hour, so no machine, however slow, lets it
     * expire first. A test that needs the lease to end revokes it ({@link #revoke}), as etcd's expiry would; only the one
     * expiry test waits for a real TTL to run out.
     */
    static final long HELD_TTL_SECONDS = 3600;
    /**
     * How long the grader's own call to etcd may wait: far longer than a lock service's 5 s, since a loaded machine may keep
     * the grader waiting for a CPU; only an etcd that is gone reaches it.
     */
    static final Duration OWN_CALL_LIMIT = Duration.ofSeconds(30);

    private final String unrelatedKey = Etcd.uniqueKey("unrelated");
    private Etcd etcd;
    private Client client;

    /**
     * Connects to this JVM's etcd, and warms the new client up before any test uses it.
     *
     * <p>A client's first calls set up its channel and load and compile the code of each kind of call; under a small
     * CPU share that takes seconds. Made here, in a class's set-up with its own time limit, that cost is never counted
     * against the first test's timeout, so a test's verdict does not depend on whether it happens to run first.
     */
    @Override
    public void beforeAll(ExtensionContext context) {
        etcd = Etcd.shared();
        client = etcd.newClient();
        warmUp();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        client.close();
        client = null;
    }

    /**
     * Makes each kind of call the tests make, on keys of its own: a lease-attached key created in a Txn, read, compared and
     * deleted. Its lease is held as a test's ({@link #HELD_TTL_SECONDS}) and revoked at the end: under a small CPU share
     * the warm-up itself takes seconds, and a lease that ran out first would fail its revoke with NOT_FOUND.
     */
    private void warmUp() {
        ByteSequence key = bytes(Etcd.uniqueKey("warm-up"));
        long leaseId = warm(client.getLeaseClient().grant(HELD_TTL_SECONDS)).getID();
        TxnResponse created = warm(client.getKVClient().txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.version(0)))
                .Then(Op.put(key, bytes("warm-up"), PutOption.builder().withLeaseId(leaseId).build()), Op.get(key, GetOption.DEFAULT))
                .commit());
        long revision = created.getGetResponses().get(0).getKvs().get(0).getCreateRevision();
        warm(client.getKVClient().get(key, GetOption.builder().withRevision(revision).build()));
        warm(client.getLeaseClient().timeToLive(leaseId, LeaseOption.DEFAULT));
        warm(client.getKVClient().txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(revision)), new Cmp(key, Cmp.Op.EQUAL, CmpTarget.value(bytes("warm-up"))))
                .Then(Op.delete(key, DeleteOption.DEFAULT))
                .commit());
        warm(client.getLeaseClient().revoke(leaseId));
    }

    /** Waits for a warm-up call as for any of the grader's own: it pays for the client's first use. */
    private static <T> T warm(CompletableFuture<T> call) {
        return await(call);
    }

    /** Waits for one of the grader's own calls to etcd, at most {@link #OWN_CALL_LIMIT}. */
    static <T> T await(java.util.concurrent.Future<T> call) {
        return Etcd.await(call, OWN_CALL_LIMIT);
    }

    Etcd etcd() {
        return connected().etcd;
    }

    /** Returns a new client on the same etcd, as another process would have; the caller closes it. */
    Client newClient() {
        return connected().etcd.newClient();
    }

    /** Returns the grader's client, for wrapping in an {@link ObservedClient}. */
    Client client() {
        return connected().client;
    }

    /**
     * Returns a client to hand to a lock service, through which etcd's revision moves before each of its KV calls, as on
     * a busy cluster: so a token taken from anything but the key's own create_revision is wrong on every run, not only
     * when other grades happen to write to the same etcd.
     */
    Client busyClient() {
        return ObservedClient.withUnrelatedWrites(client(), Etcd.uniqueKey("busy")).client();
    }

    /** Reads {@code key} as etcd holds it now. */
    Optional<KeyValue> read(String key) {
        List<KeyValue> kvs = await(client().getKVClient().get(bytes(key))).getKvs();
        return kvs.isEmpty() ? Optional.empty() : Optional.of(kvs.get(0));
    }

    /** Returns etcd's revision now: a write after this call is at a later one. */
    long revision() {
        return await(client().getKVClient().get(bytes(unrelatedKey))).getHeader().getRevision();
    }

    /**
     * Returns {@code key} as the first write to it after {@code revision} left it, or nothing if no write came within
     * {@code limit}: read from etcd's history by a watch, so it holds even when the key has been deleted since, as a key
     * on a 1 s lease may be before a slow machine gets to read it.
     */
    Optional<KeyValue> firstPutAfter(String key, long revision, Duration limit) throws InterruptedException {
        CompletableFuture<KeyValue> put = new CompletableFuture<>();
        WatchOption fromNext = WatchOption.builder().withRevision(revision + 1).withNoDelete(true).build();
        try (Watch.Watcher ignored = client().getWatchClient().watch(bytes(key), fromNext, Watch.listener(response ->
                response.getEvents().stream().filter(event -> event.getEventType() == WatchEvent.EventType.PUT).findFirst()
                        .ifPresent(event -> put.complete(event.getKeyValue())), put::completeExceptionally))) {
            return Optional.of(put.get(limit.toMillis(), TimeUnit.MILLISECONDS));
        } catch (java.util.concurrent.TimeoutException none) {
            return Optional.empty();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("the grader's watch on " + key + " failed: " + e.getCause(), e.getCause());
        }
    }

    /** Writes an unrelated key {@code count} times, so that etcd's revision moves on. */
    void unrelatedWrites(int count) {
        for (int i = 0; i < count; i++) {
            await(client().getKVClient().put(bytes(unrelatedKey), bytes("write " + i)));
        }
    }

    /**
     * Waits until etcd deletes {@code key}, which exists at {@code revision}, or {@code limit} has passed; returns whether it did.
     *
     * <p>A watch from the revision after {@code revision} sees the deletion whenever it came, even before the watch
     * was set up, so nothing is polled; the limit is only a backstop for a key that is never deleted.
     */
    boolean awaitDeleted(String key, long revision, Duration limit) throws InterruptedException {
        CountDownLatch deleted = new CountDownLatch(1);
        WatchOption fromNext = WatchOption.builder().withRevision(revision + 1).withNoPut(true).build();
        try (Watch.Watcher ignored = client().getWatchClient().watch(bytes(key), fromNext, Watch.listener(response -> {
            if (response.getEvents().stream().anyMatch(event -> event.getEventType() == WatchEvent.EventType.DELETE)) {
                deleted.countDown();
            }
        }, error -> deleted.countDown()))) {
            // A watch that failed ends the wait too: the read after it decides.
            deleted.await(limit.toMillis(), TimeUnit.MILLISECONDS);
            return read(key).isEmpty();
        }
    }

    /**
     * Revokes {@code leaseId} now, as its expiry would: an expiry is a LeaseRevoke through raft, so etcd deletes the keys
     * attached to it in one transaction, watchers see the same DELETE, and a keepalive of it is told the lease is not found.
     */
    void revoke(long leaseId) {
        await(client().getLeaseClient().revoke(leaseId));
    }

    /** Returns the time to live etcd granted the lease when it was granted, in seconds, as {@code LeaseTimeToLive} reports it. */
    long grantedTtl(long leaseId) {
        return await(client().getLeaseClient().timeToLive(leaseId, LeaseOption.DEFAULT)).getGrantedTTL();
    }

    /** Returns the lease's remaining time to live in seconds, or -1 if etcd no longer has it. */
    long timeToLive(long leaseId) {
        return await(client().getLeaseClient().timeToLive(leaseId, LeaseOption.DEFAULT)).getTTL();
    }

    static String text(ByteSequence bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }

    private EtcdObserver connected() {
        if (client == null) {
            throw new IllegalStateException("EtcdObserver connects before a class's first test: register it on a static field with @RegisterExtension");
        }
        return this;
    }
}
