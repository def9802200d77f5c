package fencing.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import fencing.grading.TestGroup;
import fencing.support.Etcd;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
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
import org.junit.jupiter.api.extension.RegisterExtension;

@TestGroup("etcd-lease")
@Tag("etcd")
@DisplayName("EtcdLockService: one holder at a time, for as long as its lease lives")
class EtcdLeaseTests {

    /**
     * etcd's shortest lease first (it expires about 1.35 s after its grant, etcd checking expiries every 500 ms); a
     * longer one only when a slow machine let the lease run out before alice's acquire had ended, which says nothing of
     * the lock service.
     */
    private static final List<Long> EXPIRING_TTLS_SECONDS = List.of(1L, 4L, 16L);
    /** Beyond the lease's TTL, far longer than etcd takes to delete its key even on an overloaded machine. */
    private static final Duration EXPIRY_BACKSTOP = Duration.ofSeconds(15);
    /**
     * How long a racing owner may wait for the other: only a hang reaches it, and the grader's own backstop for a test
     * (which leaves out the time the machine kept it waiting for a CPU) comes first.
     */
    private static final Duration RACE_BACKSTOP = Duration.ofSeconds(60);

    @RegisterExtension
    static final EtcdObserver etcd = new EtcdObserver();
    private static ExecutorService owners;

    @BeforeAll
    static void startOwners() {
        owners = Executors.newCachedThreadPool(body -> {
            Thread thread = new Thread(body, "racing owner");
            thread.setDaemon(true);
            return thread;
        });
    }

    @AfterAll
    static void stopOwners() {
        owners.shutdownNow();
    }

    @Test
    @Graded(points = 2, tags = "lease-expiry")
    @DisplayName("While the lock is held, another tryAcquire returns empty and leaves no lease behind")
    void tryAcquireWhileHeldReturnsEmptyAndLeavesNoLease() {
        String key = Etcd.uniqueKey("held");
        EtcdLockService aliceLocks = new EtcdLockService(etcd.busyClient(), key, EtcdObserver.HELD_TTL_SECONDS);
        ObservedClient bobsClient = ObservedClient.withListener(etcd.client(), call -> { });
        EtcdLockService bobLocks = new EtcdLockService(bobsClient.client(), key, EtcdObserver.HELD_TTL_SECONDS);
        Optional<Ownership> alice = aliceLocks.tryAcquire("alice");
        assertThat(alice).as("tryAcquire(\"alice\") on a free lock must return an ownership").isPresent();
        assertThat(etcd.grantedTtl(alice.get().leaseId()))
                .as("tryAcquire must grant a lease of the ttlSeconds it was given (%d s); etcd (LeaseTimeToLive) reports the"
                        + " TTL granted to alice's lease", EtcdObserver.HELD_TTL_SECONDS)
                .isEqualTo(EtcdObserver.HELD_TTL_SECONDS);

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

    /**
     * The one test that waits out a real expiry: the other tests revoke a lease to end it, which is what etcd's expiry
     * does, but only a real expiry catches a lock that keeps its lease alive by a way the grader does not see.
     */
    @Test
    @Graded(points = 2, tags = "lease-expiry")
    @DisplayName("When the holder stops keeping its lease alive, the key disappears and a new owner acquires")
    void keyDisappearsWhenTheLeaseExpiresAndANewOwnerAcquires() throws InterruptedException {
        String key = Etcd.uniqueKey("expiry");
        ExpiringAcquire attempt = ExpiringAcquire.on(key);
        ObservedClient observed = attempt.observed();
        long ttl = attempt.ttlSeconds();
        Optional<Ownership> alice = attempt.alice();
        assertThat(alice).as("tryAcquire(\"alice\") on a free lock must return an ownership").isPresent();

        // A short lease may expire before a slow machine reads the key: what alice's acquire wrote is read from etcd's
        // history and from etcd's answer to the grant, never from the key as it is by then.
        Optional<KeyValue> held = etcd.firstPutAfter(key, attempt.revisionBefore(), EXPIRY_BACKSTOP);
        assertThat(held).as("tryAcquire(\"alice\") returned an ownership, so it must have written the lock key").isPresent();
        assertThat(held.get().getLease())
                .as("the lock key must be attached to alice's lease %d, or it will outlive her (it is attached to lease %d)",
                        alice.get().leaseId(), held.get().getLease())
                .isEqualTo(alice.get().leaseId());
        assertThat(observed.grantedTtl(alice.get().leaseId()))
                .as("tryAcquire must grant a lease of the ttlSeconds it was given (%d s), so that the lock lasts no longer"
                        + " than its holder keeps the lease alive%netcd's answer to the grant of alice's lease %d says the TTL"
                        + " granted (empty: that lease was not granted through the client the lock service was given)",
                        ttl, alice.get().leaseId())
                .hasValue(ttl);
        assertThat(observed.keptAliveLeases())
                .as("alice stopped keeping her lease alive, so the lock service must not keep it alive for her (a lock that"
                        + " keeps its lease alive after its holder stopped never lets another owner in); it asked its client to"
                        + " keep these leases alive")
                .isEmpty();

        Duration backstop = EXPIRY_BACKSTOP.plusSeconds(ttl);
        boolean gone = etcd.awaitDeleted(key, held.get().getModRevision(), backstop);
        assertThat(gone)
                .as("alice stopped keeping her %d s lease alive, so it must expire and etcd must delete the lock key;"
                        + " observed: the key was still there %d s later, and %s%na lock that keeps its lease alive after its"
                        + " holder stopped never lets another owner in", ttl, backstop.toSeconds(),
                        etcd.timeToLive(alice.get().leaseId()) >= 0 ? "etcd still holds alice's lease: it was kept alive"
                                : "etcd no longer holds alice's lease")
                .isTrue();
        // bob's lease must outlive his acquire on any machine: his is not the lease that expires.
        Optional<Ownership> bob = new EtcdLockService(etcd.client(), key, EtcdObserver.HELD_TTL_SECONDS).tryAcquire("bob");
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
                ObservedClient.withListener(etcd.client(), callsAlone::add).client(), Etcd.uniqueKey("alone"), EtcdObserver.HELD_TTL_SECONDS);
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
        EtcdLockService aliceLocks = new EtcdLockService(alicesClient.client(), key, EtcdObserver.HELD_TTL_SECONDS);
        EtcdLockService bobLocks = new EtcdLockService(bobsClient, key, EtcdObserver.HELD_TTL_SECONDS);

        CompletableFuture<Optional<Ownership>> aliceTry = CompletableFuture.supplyAsync(() -> aliceLocks.tryAcquire("alice"), owners);
        CompletableFuture.anyOf(aliceTry, CompletableFuture.runAsync(() -> awaitQuietly(paused), owners)).get(RACE_BACKSTOP.toMillis(), TimeUnit.MILLISECONDS);
        Optional<Ownership> bob = bobLocks.tryAcquire("bob");
        resume.countDown();
        Optional<Ownership> alice = aliceTry.get(RACE_BACKSTOP.toMillis(), TimeUnit.MILLISECONDS);

        // On a line of its own: the rule and what was observed come first.
        String how = String.format("%nalice paused after her call %d (%s; alone she made %s) while bob tried; alice got %s, bob got %s",
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

    /**
     * Alice's acquire on a short lease: etcd's shortest first, a longer one only while the lease ran out during the
     * acquire (it threw or returned empty, and etcd no longer holds any lease it was granted).
     */
    private record ExpiringAcquire(ObservedClient observed, long ttlSeconds, long revisionBefore, Optional<Ownership> alice) {

        static ExpiringAcquire on(String key) {
            for (Iterator<Long> ttls = EXPIRING_TTLS_SECONDS.iterator(); ; ) {
                long ttl = ttls.next();
                ObservedClient observed = ObservedClient.withListener(etcd.client(), call -> { });
                long before = etcd.revision();
                try {
                    Optional<Ownership> alice = new EtcdLockService(observed.client(), key, ttl).tryAcquire("alice");
                    if (alice.isPresent() || !ttls.hasNext() || !ranOut(observed)) {
                        return new ExpiringAcquire(observed, ttl, before, alice);
                    }
                } catch (RuntimeException failed) {
                    if (!ttls.hasNext() || !ranOut(observed)) {
                        throw failed;
                    }
                }
            }
        }

        private static boolean ranOut(ObservedClient observed) {
            List<Long> granted = observed.grantedLeases();
            return !granted.isEmpty() && granted.stream().allMatch(leaseId -> etcd.timeToLive(leaseId) < 0);
        }
    }

    private static void awaitResume(CountDownLatch resume) {
        try {
            if (!resume.await(RACE_BACKSTOP.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the grader did not resume alice within " + RACE_BACKSTOP.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("alice was interrupted while paused", e);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(RACE_BACKSTOP.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for alice to pause", e);
        }
    }
}
