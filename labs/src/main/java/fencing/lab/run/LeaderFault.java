package fencing.lab.run;

import fencing.lab.common.Times;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;
import fencing.support.Etcd;
import fencing.support.EtcdCluster;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.lease.LeaseTimeToLiveResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

/**
 * The failover's fault: while A is frozen, etcd's leader member is killed, the others elect a new leader, and A's
 * lease is sampled through the lease time-to-live API, so that the evidence shows the new leader renewing it.
 *
 * <p>A new etcd leader does not know how long ago a lease was last kept alive: on taking office it gives every lease
 * its full TTL again (plus an election timeout). So the frozen A's key lives on past the TTL it was granted with.
 */
final class LeaderFault implements AutoCloseable {

    private static final Duration ELECTION_WITHIN = Duration.ofSeconds(10);
    private static final long SAMPLE_EVERY_MILLIS = 100;
    private static final long SAMPLE_TIMEOUT_MILLIS = 1_000;

    private final EtcdCluster cluster;
    private final Client client;
    private final long leaseId;
    private final long ttlSeconds;
    private final Journal journal;
    private final BiConsumer<String, Object[]> progress;
    private final Thread sampler;
    private volatile boolean done;
    private volatile int unanswered;
    private volatile String lastProblem;
    private String killed;
    private long faultAtMicros;

    /** Starts sampling A's lease {@code leaseId} at once, so that the samples begin before the fault. */
    LeaderFault(EtcdCluster cluster, Client client, long leaseId, long ttlSeconds, Journal journal, BiConsumer<String, Object[]> progress) {
        if (cluster == null) {
            throw new IllegalStateException("the failover case kills etcd's leader, but the study runs on an etcd it may not fault;"
                    + " it needs a cluster of its own");
        }
        this.cluster = cluster;
        this.client = client;
        this.leaseId = leaseId;
        this.ttlSeconds = ttlSeconds;
        this.journal = journal;
        this.progress = progress;
        this.sampler = new Thread(this::sample, "lease-ttl-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    /**
     * Waits until A's lease is about halfway through its TTL, kills the leader member with SIGKILL, and waits until the
     * others agree on a new one.
     *
     * @throws IllegalStateException if A's key was already gone, or no new leader was agreed on in time
     */
    void strike(ByteSequence key, long stopAt, long lastKeepAlive) {
        long at = Math.max(stopAt + 200_000, lastKeepAlive + ttlSeconds * 500_000L);
        sleepMicros(at - Times.nowMicros());
        if (Etcd.await(client.getKVClient().get(key, GetOption.builder().withCountOnly(true).build())).getCount() == 0) {
            throw new IllegalStateException("A's key was gone before etcd's leader could be faulted, "
                    + Times.seconds(Times.nowMicros() - stopAt) + " after SIGSTOP: the machine is too slow for this case's timing");
        }
        EtcdCluster.Member old = cluster.awaitLeader(null, ELECTION_WITHIN);
        long oldTerm = cluster.status(old.name()).map(EtcdCluster.Status::term).orElse(0L);
        long pid = cluster.pid(old.name());
        faultAtMicros = Times.nowMicros();
        cluster.kill(old.name());
        killed = old.name();
        journal.add(Lane.ETCD, EventKind.LEADER_FAULT, faultAtMicros, "leader " + old.name() + " killed",
                "SIGKILL to etcd " + old.name() + " (pid " + pid + "), the leader in term " + oldTerm + ", "
                        + Times.seconds(faultAtMicros - stopAt) + " after A's SIGSTOP; A's lease still had time left");
        progress.accept("etcd's leader %s (pid %d, term %d) killed with SIGKILL, %s after A's SIGSTOP",
                new Object[] {old.name(), pid, oldTerm, Times.seconds(faultAtMicros - stopAt)});
        EtcdCluster.Member elected = cluster.awaitLeader(old.name(), ELECTION_WITHIN);
        long electedAt = Times.nowMicros();
        long newTerm = cluster.status(elected.name()).map(EtcdCluster.Status::term).orElse(0L);
        journal.add(Lane.ETCD, EventKind.LEADER_ELECTED, electedAt, elected.name() + " leads (term " + newTerm + ")",
                "the two remaining members agreed on " + elected.name() + " as leader, seen " + Times.seconds(electedAt - faultAtMicros)
                        + " after the kill (election timeout " + EtcdCluster.ELECTION_TIMEOUT.toMillis() + " ms); the old leader was " + old.name());
        progress.accept("%s elected leader in term %d, seen %s after the kill; the old leader was %s",
                new Object[] {elected.name(), newTerm, Times.seconds(electedAt - faultAtMicros), old.name()});
    }

    /** Says how long after the leader's fault A's key was seen gone, against the budget of TTL + election timeout + 1 s. */
    void keyGone(long observedAtMicros) {
        long budget = ttlSeconds * 1_000_000L + EtcdCluster.ELECTION_TIMEOUT.toMillis() * 1_000L + 1_000_000L;
        progress.accept("A's key seen gone %s after the leader's fault (TTL + election timeout + 1 s = %s); %d lease samples unanswered"
                + " during the election", new Object[] {Times.seconds(observedAtMicros - faultAtMicros), Times.seconds(budget), unanswered});
    }

    /** Stops sampling and starts the killed member again over its data, so that the next repeat has three members again. */
    @Override
    public void close() {
        done = true;
        sampler.interrupt();
        try {
            sampler.join(SAMPLE_TIMEOUT_MILLIS * 2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the lease's sampler", e);
        }
        if (killed != null && !cluster.running(killed)) {
            long startedAt = Times.nowMicros();
            cluster.restart(killed);
            progress.accept("etcd %s started again over its data in %s", new Object[] {killed, Times.seconds(Times.nowMicros() - startedAt)});
        }
    }

    private void sample() {
        Long last = null;
        boolean noDeadlineSaid = false;
        while (!done) {
            try {
                LeaseTimeToLiveResponse answer = client.getLeaseClient().timeToLive(leaseId, LeaseOption.DEFAULT)
                        .get(SAMPLE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
                long at = Times.nowMicros();
                long ttl = answer.getTTL();
                if (ttl < 0) {
                    return;
                }
                if (ttl > answer.getGrantedTTL() + 1) {
                    // A lessor that is not the leader's keeps no deadlines and reports "forever" (2^63 ns, in seconds):
                    // the new leader answered before it took the leases over. Not a renewal.
                    if (!noDeadlineSaid) {
                        journal.add(Lane.ETCD, EventKind.LEASE_TTL_LEFT, at, "lease: no deadline (" + ttl + " s)", "the member that"
                                + " answered keeps no deadline for A's lease yet: a lessor that is not the leader's reports it as never expiring");
                        noDeadlineSaid = true;
                    }
                } else if (last != null && ttl > last) {
                    journal.add(Lane.ETCD, EventKind.LEASE_RENEWED, at, "A's lease renewed: " + last + " s → " + ttl + " s left",
                            "etcd's time-to-live for A's lease went up, though A is frozen and sent no keepalive: the new leader gave"
                                    + " the lease its TTL again (" + unanswered + " samples unanswered during the election"
                                    + (lastProblem == null ? "" : ", the last: " + lastProblem) + ")");
                    progress.accept("A's lease renewed by the new leader: etcd now says %d s left (it said %d s), though A is still frozen",
                            new Object[] {ttl, last});
                    last = ttl;
                } else if (last == null || ttl != last) {
                    journal.add(Lane.ETCD, EventKind.LEASE_TTL_LEFT, at, "lease: " + ttl + " s left", "etcd's time-to-live for A's lease, sampled");
                    last = ttl;
                }
            } catch (TimeoutException | ExecutionException noAnswer) {
                // During the election etcd may answer nothing, or "no leader"; the count goes into the evidence.
                unanswered++;
                lastProblem = String.valueOf(noAnswer instanceof ExecutionException ? noAnswer.getCause().getMessage() : "no answer within "
                        + SAMPLE_TIMEOUT_MILLIS + " ms");
            } catch (InterruptedException stop) {
                return;
            }
            try {
                Thread.sleep(SAMPLE_EVERY_MILLIS);
            } catch (InterruptedException stop) {
                return;
            }
        }
    }

    private static void sleepMicros(long micros) {
        if (micros <= 0) {
            return;
        }
        try {
            TimeUnit.MICROSECONDS.sleep(micros);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to fault etcd's leader", e);
        }
    }
}
