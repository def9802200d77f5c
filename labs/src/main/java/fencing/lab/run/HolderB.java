package fencing.lab.run;

import fencing.etcd.EtcdLockService;
import fencing.etcd.Ownership;
import fencing.lab.common.Times;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.Optional;

/** B, in the runner: it takes the lock once A's key is seen gone, keeps its lease alive, and releases it when told or at the end. */
public final class HolderB {

    private static final Duration ACQUIRE_WITHIN = Duration.ofSeconds(2);

    private final Client client;
    private final EtcdLockService lock;
    private final Journal journal;
    private Ownership ownership;
    private CloseableClient keepAlive;

    HolderB(Client client, String key, long ttlSeconds, Journal journal) {
        this.client = client;
        this.lock = new EtcdLockService(client, key, ttlSeconds);
        this.journal = journal;
    }

    /** Takes the lock, trying again every 10 ms for up to 2 s, and keeps its lease alive. */
    Ownership acquire() {
        long deadline = System.nanoTime() + ACQUIRE_WITHIN.toNanos();
        while (true) {
            Optional<Ownership> got = lock.tryAcquire("B");
            if (got.isPresent()) {
                ownership = got.get();
                keepAlive = client.getLeaseClient().keepAlive(ownership.leaseId(), keepAliveEvents());
                return ownership;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("B could not take the lock within 2 s of seeing the key gone");
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while B waited for the lock", e);
            }
        }
    }

    /** Returns B's ownership. */
    public Ownership ownership() {
        if (ownership == null) {
            throw new IllegalStateException("B does not hold the lock");
        }
        return ownership;
    }

    /** Stops keeping B's lease alive and releases the lock, if B holds it; returns whether its key was deleted, or empty. */
    public Optional<Boolean> release() {
        if (keepAlive != null) {
            keepAlive.close();
            keepAlive = null;
        }
        if (ownership == null) {
            return Optional.empty();
        }
        boolean deleted = lock.release(ownership);
        journal.add(Lane.B, EventKind.RELEASED, Times.nowMicros(), "releases", deleted ? "deleted its key and revoked its lease" : "its key was already gone");
        ownership = null;
        return Optional.of(deleted);
    }

    private StreamObserver<LeaseKeepAliveResponse> keepAliveEvents() {
        return new StreamObserver<>() {
            @Override
            public void onNext(LeaseKeepAliveResponse response) {
                // B's lease outlives the repeat's few hundred milliseconds; its refreshes are not part of the story.
            }

            @Override
            public void onError(Throwable error) {
                journal.add(Lane.B, EventKind.KEEPALIVE_FAILED, Times.nowMicros(), "keepalive failed", String.valueOf(error.getMessage()));
            }

            @Override
            public void onCompleted() {
                // The runner closes B's keepalive itself at the end of the repeat.
            }
        };
    }
}
