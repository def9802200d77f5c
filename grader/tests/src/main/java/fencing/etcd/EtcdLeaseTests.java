package fencing.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import fencing.support.Etcd;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("etcd")
@DisplayName("EtcdLockService: one holder at a time, for as long as its lease lives")
class EtcdLeaseTests {

    private static final long HELD_TTL_SECONDS = 10;

    private static EtcdObserver etcd;
    private static ExecutorService owners;

    // The first etcd test in a JVM may start etcd itself, which has up to 30 s to become healthy.
    @BeforeAll
    static void connect() {
        etcd = EtcdObserver.connect();
        owners = Executors.newCachedThreadPool(body -> {
            Thread thread = new Thread(body, "racing owner");
            thread.setDaemon(true);
            return thread;
        });
    }

    @AfterAll
    static void disconnect() {
        owners.shutdownNow();
        etcd.close();
    }

    @Test
    @Graded(points = 2, tags = "lease-expiry")
    @DisplayName("While the lock is held, another tryAcquire returns empty and leaves no lease behind")
    void tryAcquireWhileHeldReturnsEmptyAndLeavesNoLease() {
        String key = Etcd.uniqueKey("held");
        EtcdLockService aliceLocks = new EtcdLockService(etcd.busyClient(), key, HELD_TTL_SECONDS);
        ObservedClient bobsClient = ObservedClient.withListener(etcd.client(), call -> { });
        EtcdLockService bobLocks = new EtcdLockService(bobsClient.client(), key, HELD_TTL_SECONDS);
        Optional<Ownership> alice = aliceLocks.tryAcquire("alice");
        assertThat(alice).as("tryAcquire(\"alice\") on a free lock must return an ownership").isPresent();

        Set<Long> before = EtcdLeases.list(etcd.etcd());
        Optional<Ownership> bob = bobLocks.tryAcquire("bob");
        Set<Long> after = EtcdLeases.list(etcd.etcd());

        assertThat(bob)
                .as("alice holds the lock (token %d), so tryAcquire(\"bob\") must return empty", alice.get().token())
                .isEmpty();
        List<Long> leftBehind = bobsClient.grantedLeases().stream().filter(after::contains).collect(Collectors.toList());
        assertThat(leftBehind)
                .as("a failed tryAcquire must revoke the lease it was granted (%s), but etcd's lease list (LeaseLeases) "
                        + "still holds it after the call (%d leases before, %d after)",
                        bobsClient.grantedLeases(), before.size(), after.size())
                .isEmpty();
        assertThat(before)
                .as("while alice holds the lock, etcd's lease list must hold her lease %d", alice.get().leaseId())
                .contains(alice.get().leaseId());
        assertThat(after)
                .as("a failed tryAcquire must leave the holder's lease %d alone", alice.get().leaseId())
                .contains(alice.get().leaseId());
        Optional<KeyValue> kv = etcd.read(key);
        assertThat(kv.map(k -> EtcdObserver.text(k.getValue())))
                .as("after bob's failed attempt the lock key must still say \"alice\"")
                .contains("alice");
    }

    @Test
    @Graded(points = 2, tags = "lease-expiry")
    @DisplayName("When the holder stops keeping its lease alive, the key disappears and a new owner acquires")
    void keyDisappearsWhenTheLeaseExpiresAndANewOwnerAcquires() throws InterruptedException {
        String key = Etcd.uniqueKey("expiry");
        EtcdLockService locks = new EtcdLockService(etcd.busyClient(), key, 1);
        Optional<Ownership> alice = locks.tryAcquire("alice");
        assertThat(alice).as("tryAcquire(\"alice\") on a free lock must return an ownership").isPresent();

        Optional<KeyValue> held = etcd.read(key);
        assertThat(held).as("while alice holds the lock, the lock key must exist").isPresent();
        assertThat(held.get().getLease())
                .as("the lock key must be attached to alice's lease %d, or it will outlive her (it is attached to lease %d)",
                        alice.get().leaseId(), held.get().getLease())
                .isEqualTo(alice.get().leaseId());

        boolean gone = etcd.awaitGone(key, Duration.ofSeconds(10));
        assertThat(gone)
                .as("alice never keeps her 1 s lease alive, so etcd must delete the lock key within 10 s")
                .isTrue();
        Optional<Ownership> bob = locks.tryAcquire("bob");
        assertThat(bob)
                .as("once alice's lease has expired and her key is gone, tryAcquire(\"bob\") must succeed")
                .isPresent();
        assertThat(bob.get().token())
                .as("bob's token must be larger than alice's (%d)", alice.get().token())
                .isGreaterThan(alice.get().token());
    }

    @Test
    @Graded(points = 2, tags = "lease-expiry")
    @DisplayName("Two owners racing for a free lock: whatever the interleaving, exactly one gets it")
    void racingOwnersNeverBothGetTheLock() throws Exception {
        List<String> callsAlone = Collections.synchronizedList(new ArrayList<>());
        EtcdLockService alone = new EtcdLockService(
                ObservedClient.withListener(etcd.client(), callsAlone::add).client(), Etcd.uniqueKey("alone"), HELD_TTL_SECONDS);
        assertThat(alone.tryAcquire("alice"))
                .as("tryAcquire(\"alice\") on a free lock must return an ownership")
                .isPresent();
        assertThat(callsAlone)
                .as("tryAcquire must use the etcd client it was given")
                .isNotEmpty();

        try (Client bobsClient = etcd.newClient()) {
            for (int k = 1; k <= callsAlone.size(); k++) {
                raceWithAlicePausedAfter(k, callsAlone, bobsClient);
            }
        }
    }

    /** Alice pauses after her etcd call number {@code k}; bob, in another process, tries meanwhile. */
    private static void raceWithAlicePausedAfter(int k, List<String> callsAlone, Client bobsClient) throws Exception {
        String key = Etcd.uniqueKey("race");
        AtomicInteger calls = new AtomicInteger();
        AtomicReference<String> pausedAfter = new AtomicReference<>("nothing: she ended before");
        CountDownLatch paused = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        ObservedClient alicesClient = ObservedClient.withListener(etcd.client(), call -> {
            if (calls.incrementAndGet() == k) {
                pausedAfter.set(call);
                paused.countDown();
                awaitResume(resume);
            }
        });
        EtcdLockService aliceLocks = new EtcdLockService(alicesClient.client(), key, HELD_TTL_SECONDS);
        EtcdLockService bobLocks = new EtcdLockService(bobsClient, key, HELD_TTL_SECONDS);

        CompletableFuture<Optional<Ownership>> aliceTry = CompletableFuture.supplyAsync(() -> aliceLocks.tryAcquire("alice"), owners);
        CompletableFuture.anyOf(aliceTry, CompletableFuture.runAsync(() -> awaitQuietly(paused), owners)).get(5, TimeUnit.SECONDS);
        Optional<Ownership> bob = bobLocks.tryAcquire("bob");
        resume.countDown();
        Optional<Ownership> alice = aliceTry.get(5, TimeUnit.SECONDS);

        String how = String.format("alice paused after her call %d (%s; alone she made %s) while bob tried; alice got %s, bob got %s",
                k, pausedAfter.get(), callsAlone, alice, bob);
        long winners = Stream.of(alice, bob).filter(Optional::isPresent).count();
        assertThat(winners)
                .as("the lock was free, so exactly one of two racing owners must get it: %s", how)
                .isEqualTo(1);
        Ownership winner = alice.or(() -> bob).orElseThrow();
        Optional<KeyValue> kv = etcd.read(key);
        assertThat(kv).as("the winner's lock key must exist: %s", how).isPresent();
        assertThat(EtcdObserver.text(kv.get().getValue()))
                .as("the lock key must name the one owner who was told it holds the lock: %s", how)
                .isEqualTo(winner.owner());
        assertThat(kv.get().getCreateRevision())
                .as("the lock key's create_revision must be the winner's token: %s", how)
                .isEqualTo(winner.token());
    }

    private static void awaitResume(CountDownLatch resume) {
        try {
            if (!resume.await(5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the grader did not resume alice within 5 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("alice was interrupted while paused", e);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for alice to pause", e);
        }
    }
}
