package fencing.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import fencing.grading.TestGroup;
import fencing.sink.ConnectionSource;
import fencing.sink.FencedSink;
import fencing.sink.OwnerCheckingSink;
import fencing.sink.PlainSink;
import fencing.sink.Sink;
import fencing.sink.SinkState;
import fencing.sink.WriteResult;
import fencing.support.Etcd;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Part 4 on a real etcd and real SQLite files: a sink that asks the lock service who holds the lock now.
 *
 * <p>The grader takes and gives up the lock itself, as {@code EtcdLockService} does (a lease-attached
 * key created only if absent, whose create_revision is the token), so that these tests grade the owner
 * check and the sink, not the Part 2 lock.
 */
@TestGroup("current-owner")
@Tag("etcd")
@DisplayName("Part 4: the current owner, as etcd sees it now, and forged tokens")
class CurrentOwnerGradedTests {

    private static final long FORGED = 1_000_000_000_000L;

    @RegisterExtension
    static final EtcdObserver etcd = new EtcdObserver();

    /** One grant of the lock, taken by the grader. */
    private record Holder(String owner, long token, long leaseId) {
    }

    @Test
    @Graded(points = 3, tags = {"extension", "pre-contact"})
    @DisplayName("A's lease expired and B holds the lock but has not written: FencedSink accepts A, OwnerCheckingSink rejects A")
    void preContactLateWriteIsAcceptedByTheMarkAndRejectedByTheOwnerCheck(@TempDir Path dir) {
        String key = Etcd.uniqueKey("pre-contact");
        Sink fenced = new FencedSink(ConnectionSource.sqlite(dir.resolve("fenced.db")));
        Sink owned = new OwnerCheckingSink(ConnectionSource.sqlite(dir.resolve("current-owner.db")), new EtcdOwnerCheck(etcd.client(), key));
        Holder a = acquire(key, "A", EtcdObserver.HELD_TTL_SECONDS);
        WriteResult aWhileHolding = owned.write(a.token(), "A, while holding");
        fenced.write(a.token(), "A, while holding");
        assertThat(aWhileHolding.accepted())
                .as("A holds the lock with token %d, so the owner-checking sink must accept its write", a.token())
                .isTrue();

        // A pauses past its lease: etcd ends it and deletes the key, as expiry would, and B acquires.
        etcd.revoke(a.leaseId());
        Holder b = acquire(key, "B", EtcdObserver.HELD_TTL_SECONDS);
        WriteResult fencedLate = fenced.write(a.token(), "A, late");
        WriteResult ownedLate = owned.write(a.token(), "A, late");

        assertThat(fencedLate.accepted())
                .as("A's lease expired and B holds the lock (token %d) but has not written: a high-water-mark-only sink "
                        + "has seen nothing above A's token %d, so FencedSink must still accept A's late write", b.token(), a.token())
                .isTrue();
        assertThat(ownedLate.accepted())
                .as("A's lease expired and B holds the lock (token %d): etcd says A's token %d is not the current holder's, "
                        + "so OwnerCheckingSink must reject A's late write (current-ownership semantics); it returned %s",
                        b.token(), a.token(), ownedLate)
                .isFalse();
        assertThat(read(dir.resolve("current-owner.db")))
                .as("a rejected write changes nothing: the owner-checking sink must still hold A's write from while it held the lock")
                .isEqualTo(new SinkState("A, while holding", a.token()));

        WriteResult fencedB = fenced.write(b.token(), "B");
        WriteResult ownedB = owned.write(b.token(), "B");
        assertThat(List.of(fencedB.accepted(), ownedB.accepted()))
                .as("B holds the lock with token %d: both sinks must accept B's write (fenced, current-owner)", b.token())
                .containsExactly(true, true);
        assertThat(List.of(read(dir.resolve("fenced.db")), read(dir.resolve("current-owner.db"))))
                .as("B's value wins in both sinks once B has written (fenced, current-owner)")
                .containsExactly(new SinkState("B", b.token()), new SinkState("B", b.token()));
    }

    @Test
    @Graded(points = 3, tags = {"extension", "forged-token"})
    @DisplayName("A forged token, far above any revision or just above the holder's, is rejected and the holder goes on writing")
    void forgedTokensAreRejectedAndTheHolderKeepsWriting(@TempDir Path dir) {
        String key = Etcd.uniqueKey("forged");
        Path file = dir.resolve("current-owner.db");
        Sink owned = new OwnerCheckingSink(ConnectionSource.sqlite(file), new EtcdOwnerCheck(etcd.client(), key));
        Holder b = acquire(key, "B", EtcdObserver.HELD_TTL_SECONDS);
        assertThat(owned.write(b.token(), "B, first").accepted())
                .as("B holds the lock with token %d, so its write must be accepted", b.token()).isTrue();

        for (long forged : new long[] {FORGED, b.token() + 1}) {
            WriteResult result = owned.write(forged, "C, forged");
            assertThat(result.accepted())
                    .as("a process C that never held the lock sends token %d (B holds it with token %d): fencing is "
                            + "ineffective if the resource accepts tokens an attacker can invent, so the owner-checking sink "
                            + "must reject it%nit returned %s", forged, b.token(), result)
                    .isFalse();
            assertThat(read(file))
                    .as("the forged token %d was rejected, so it must not move the mark: the sink must still hold B's write "
                            + "with mark %d", forged, b.token())
                    .isEqualTo(new SinkState("B, first", b.token()));
        }
        WriteResult next = owned.write(b.token(), "B, next");
        assertThat(next.accepted())
                .as("after the forged writes, B, the real holder (token %d), must still be able to write: a forged token "
                        + "must not lock the real owner out", b.token())
                .isTrue();
        assertThat(read(file)).as("B's next write must be stored").isEqualTo(new SinkState("B, next", b.token()));
    }

    @Test
    @Graded(points = 2, tags = {"extension", "current-owner"})
    @DisplayName("A holder's token stops being current once it released the lock or its lease expired")
    void releasedOrExpiredHoldersTokenIsRejected(@TempDir Path dir) {
        String released = Etcd.uniqueKey("released");
        Sink afterRelease = new OwnerCheckingSink(ConnectionSource.sqlite(dir.resolve("released.db")), new EtcdOwnerCheck(etcd.client(), released));
        Holder a = acquire(released, "A", EtcdObserver.HELD_TTL_SECONDS);
        assertThat(afterRelease.write(a.token(), "A, holding").accepted())
                .as("A holds the lock with token %d, so its write must be accepted", a.token()).isTrue();
        release(released, a);
        WriteResult late = afterRelease.write(a.token(), "A, after release");
        assertThat(late.accepted())
                .as("A released the lock, so its token %d is no longer the current holder's: the write must be rejected, "
                        + "although the token equals the mark (a high-water mark alone would accept it); it returned %s",
                        a.token(), late)
                .isFalse();

        String expired = Etcd.uniqueKey("expired");
        Sink afterExpiry = new OwnerCheckingSink(ConnectionSource.sqlite(dir.resolve("expired.db")), new EtcdOwnerCheck(etcd.client(), expired));
        Holder e = acquire(expired, "E", EtcdObserver.HELD_TTL_SECONDS);
        assertThat(afterExpiry.write(e.token(), "E, holding").accepted())
                .as("E holds the lock with token %d, so its write must be accepted", e.token()).isTrue();
        etcd.revoke(e.leaseId());
        WriteResult stale = afterExpiry.write(e.token(), "E, after expiry");
        assertThat(stale.accepted())
                .as("E's lease ended (etcd deleted the lock key), so its token %d is no longer the current holder's: the "
                        + "write must be rejected; it returned %s", e.token(), stale)
                .isFalse();
        assertThat(read(dir.resolve("expired.db")))
                .as("the rejected write changes nothing").isEqualTo(new SinkState("E, holding", e.token()));
    }

    @Test
    @Graded(points = 2, tags = {"extension", "current-owner"})
    @DisplayName("EtcdOwnerCheck compares the key's create_revision: not its value, lease, version or mod_revision")
    void ownerCheckComparesTheCreateRevision() {
        String key = Etcd.uniqueKey("owner-check");
        EtcdOwnerCheck owners = new EtcdOwnerCheck(etcd.client(), key);
        assertThat(List.of(owners.isCurrent(0), owners.isCurrent(-1), owners.isCurrent(5)))
                .as("nobody holds the lock, so no token may be current: isCurrent(0), isCurrent(-1), isCurrent(5)")
                .containsExactly(false, false, false);

        Holder b = acquire(key, "B", EtcdObserver.HELD_TTL_SECONDS);
        long lookalike = b.token() + 7;
        // The holder rewrites its key (same lease): the version and mod_revision move on, the create_revision stays.
        EtcdObserver.await(etcd.client().getKVClient().put(EtcdObserver.bytes(key), EtcdObserver.bytes(Long.toString(lookalike)),
                PutOption.builder().withLeaseId(b.leaseId()).build()));
        KeyValue kv = etcd.read(key).orElseThrow();

        assertThat(owners.isCurrent(b.token()))
                .as("B holds the lock: the key's create_revision is %d, so isCurrent(%d) must be true, even after B rewrote "
                        + "its key (version %d, mod_revision %d)", kv.getCreateRevision(), b.token(), kv.getVersion(), kv.getModRevision())
                .isTrue();
        long[][] wrong = {{kv.getModRevision(), 'm'}, {kv.getVersion(), 'v'}, {b.leaseId(), 'l'}, {lookalike, 'x'}, {0, '0'}};
        for (long[] token : wrong) {
            String what = switch ((char) token[1]) {
                case 'm' -> "the key's mod_revision";
                case 'v' -> "the key's version";
                case 'l' -> "the lease ID";
                case 'x' -> "the number stored in the key's value";
                default -> "0, which is never a token";
            };
            assertThat(owners.isCurrent(token[0]))
                    .as("only the create_revision (%d) is the token B was granted; isCurrent(%d), %s, must be false",
                            b.token(), token[0], what)
                    .isFalse();
        }
    }

    @Test
    @Graded(points = 1, tags = {"extension", "current-owner"})
    @DisplayName("EtcdOwnerCheck asks etcd on every call, with a linearizable read, not a serializable one")
    void ownerCheckReadsLinearizablyOnEveryCall() {
        String key = Etcd.uniqueKey("linearizable");
        ReadRecordingClient recording = new ReadRecordingClient(etcd.client());
        EtcdOwnerCheck owners = new EtcdOwnerCheck(recording.client(), key);
        Holder b = acquire(key, "B", EtcdObserver.HELD_TTL_SECONDS);

        boolean before = owners.isCurrent(b.token());
        int readsBefore = recording.reads().size();
        release(key, b);
        boolean after = owners.isCurrent(b.token());

        assertThat(List.of(before, after))
                .as("B's token %d must be current while B holds the lock and not after B released it", b.token())
                .containsExactly(true, false);
        assertThat(recording.reads().size())
                .as("each isCurrent call must ask etcd through the client it was given, now: the reads were %s", recording.reads())
                .isGreaterThan(readsBefore)
                .isGreaterThan(0);
        assertThat(recording.reads())
                .as("who holds the lock must be read linearizably: a serializable read (or a Txn with no read in it) may be "
                        + "answered from a member's local, possibly stale state; the reads were %s", recording.reads())
                .allMatch(read -> read.endsWith(": linearizable"));
    }

    private static Holder acquire(String key, String owner, long ttlSeconds) {
        long leaseId = EtcdObserver.await(etcd.client().getLeaseClient().grant(ttlSeconds)).getID();
        ByteSequence k = EtcdObserver.bytes(key);
        TxnResponse txn = EtcdObserver.await(etcd.client().getKVClient().txn()
                .If(new Cmp(k, Cmp.Op.EQUAL, CmpTarget.version(0)))
                .Then(Op.put(k, EtcdObserver.bytes(owner), PutOption.builder().withLeaseId(leaseId).build()),
                        Op.get(k, GetOption.DEFAULT))
                .commit());
        if (!txn.isSucceeded()) {
            throw new IllegalStateException("the grader could not take the free lock " + key);
        }
        return new Holder(owner, txn.getGetResponses().get(0).getKvs().get(0).getCreateRevision(), leaseId);
    }

    private static void release(String key, Holder holder) {
        ByteSequence k = EtcdObserver.bytes(key);
        EtcdObserver.await(etcd.client().getKVClient().txn()
                .If(new Cmp(k, Cmp.Op.EQUAL, CmpTarget.createRevision(holder.token())))
                .Then(Op.delete(k, DeleteOption.DEFAULT))
                .commit());
        etcd.revoke(holder.leaseId());
    }

    /** Reads a sink's row through the provided plain sink, as an operator would, without the submission's code. */
    private static SinkState read(Path file) {
        return new PlainSink(ConnectionSource.sqlite(file)).read();
    }
}
