package fencing.lab;

import com.fasterxml.jackson.databind.JsonNode;
import fencing.etcd.EtcdLockService;
import fencing.etcd.Ownership;
import fencing.support.Etcd;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.support.CloseableClient;
import io.etcd.jetcd.watch.WatchEvent;
import io.grpc.stub.StreamObserver;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** One repeat of a case: A acquires and freezes, its lease expires, B acquires and writes, A writes late. */
final class RepeatRun {

    static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(15);
    private static final long POLL_MICROS = 50_000;
    private static final long COUNTDOWN_MICROS = 500_000;
    static final String LATE = "A-late";
    static final String CURRENT = "B-current";

    private final StudyCase studyCase;
    private final Client client;
    private final long ttlSeconds;
    private final PrintWriter out;
    private final Prepared prepared;
    private final int repeats;
    private final List<RawEvent> events = new ArrayList<>();
    private final List<Exchange> calls = new ArrayList<>();
    private long start;

    private record RawEvent(String lane, long atMicros, String label, String detail) {
    }

    RepeatRun(StudyCase studyCase, Client client, long ttlSeconds, PrintWriter out, Prepared prepared, int repeats) {
        this.studyCase = studyCase;
        this.client = client;
        this.ttlSeconds = ttlSeconds;
        this.out = out;
        this.prepared = prepared;
        this.repeats = repeats;
    }

    /**
     * Runs the repeat and returns its evidence; {@code whenTimed} runs once the repeat's timed part is over.
     *
     * @throws ChildProcess.ChildFailed   if a process failed or said nothing in time
     * @throws IllegalStateException      if etcd, the sink or a signal failed
     */
    Evidence.Repeat run(Runnable whenTimed) {
        int n = prepared.repeat;
        ChildProcess worker = prepared.worker;
        JsonNode started = json(worker.await("STARTED", START_TIMEOUT));
        prepared.sink().await("LISTENING", START_TIMEOUT);
        SinkClient asB = new SinkClient(prepared.sinkUri(), "B");
        SinkClient asRunner = new SinkClient(prepared.sinkUri(), "runner");
        requireOk(asRunner.call("GET", "/health", null), "the sink server's health");
        ByteSequence key = ByteSequence.from(prepared.key, StandardCharsets.UTF_8);
        EtcdLockService lockB = new EtcdLockService(client, prepared.key, ttlSeconds);
        Ownership b = null;
        CloseableClient bKeepAlive = null;
        Watch.Watcher watcher = null;
        Evidence.Holder aHolder = null;
        Evidence.Holder bHolder = null;
        Evidence.Expiry expiry = null;
        long stopAt = 0;
        long end = 0;
        boolean finished = false;
        out.printf(Locale.ROOT, "%nrepeat %d/%d · %s · lock key %s%n", n, repeats, studyCase.label(), prepared.key);
        start = Times.nowMicros();
        try {
            worker.send("acquire");
            JsonNode ready = json(worker.await("READY", STEP_TIMEOUT));
            long aToken = ready.get("token").asLong();
            long aLease = ready.get("leaseId").asLong();
            long acquiredAt = ready.get("acquiredAtMicros").asLong();
            aHolder = holder("A", aToken, aLease, acquiredAt, worker.pid());
            event("A", acquiredAt, "acquires token " + aToken, "EtcdLockService.tryAcquire: lease " + hex(aLease) + ", TTL " + ttlSeconds + " s");
            event("etcd", acquiredAt, "key created, rev " + aToken, "the lock key, attached to A's lease " + hex(aLease));
            event("A", ready.get("readyAtMicros").asLong(), "READY", "holds the lock, keeps its lease alive and has read the sink");
            progress("A (pid %d) took the lock: token %d, lease %s, TTL %d s; it keeps the lease alive and said READY",
                    worker.pid(), aToken, hex(aLease), ttlSeconds);

            // From the revision after A's put: a deletion between this call and the freeze cannot be missed.
            CompletableFuture<long[]> watchSaw = new CompletableFuture<>();
            watcher = client.getWatchClient().watch(key, WatchOption.builder().withRevision(aToken + 1).build(),
                    Watch.listener(response -> {
                        for (WatchEvent event : response.getEvents()) {
                            if (event.getEventType() == WatchEvent.EventType.DELETE) {
                                watchSaw.complete(new long[] {Times.nowMicros(), event.getKeyValue().getModRevision()});
                            }
                        }
                    }, watchSaw::completeExceptionally));
            long lastKeepAlive = lastKeepAlive(worker, ready.get("firstKeepAliveAtMicros").asLong());

            stopAt = Times.nowMicros();
            worker.freeze();
            event("A", stopAt, "SIGSTOP", "frozen: its keepalives stop, and it still believes it holds the lock");
            long ttlLeft = Etcd.await(client.getLeaseClient().timeToLive(aLease, LeaseOption.DEFAULT)).getTTL();
            event("etcd", Times.nowMicros(), "lease: " + ttlLeft + " s left", "etcd's own count for A's lease right after the freeze (whole seconds)");
            progress("A frozen with SIGSTOP; its last keepalive was %s before, and etcd says its lease has %d s left",
                    Times.seconds(stopAt - lastKeepAlive), ttlLeft);
            expiry = awaitDeletion(key, stopAt, lastKeepAlive, ttlLeft, watchSaw);
            event("etcd", expiry.observedAtMicros(), "lease expired: key deleted" + (expiry.deleteRevision() == null ? "" : ", rev " + expiry.deleteRevision()),
                    "seen by the " + expiry.observedBy() + " " + expiry.waitAfterStopMillis() + " ms after SIGSTOP");

            b = acquireB(lockB);
            long bAcquiredAt = Times.nowMicros();
            bHolder = holder("B", b.token(), b.leaseId(), bAcquiredAt, null);
            bKeepAlive = client.getLeaseClient().keepAlive(b.leaseId(), keepAliveEvents("B"));
            event("B", bAcquiredAt, "acquires token " + b.token(), "EtcdLockService.tryAcquire: lease " + hex(b.leaseId()));
            event("etcd", bAcquiredAt, "key created, rev " + b.token(), "the lock key again, attached to B's lease " + hex(b.leaseId()));
            progress("B took the lock: token %d (larger than A's %d), lease %s", b.token(), aToken, hex(b.leaseId()));

            switch (studyCase) {
                case LATE_WRITE:
                    writeB(asB, b, "plain", "fenced");
                    lateWriteA(worker, "plain", "fenced");
                    break;
                case RESTART:
                    writeB(asB, b, "plain", "fenced");
                    restartSink();
                    lateWriteA(worker, "plain", "fenced");
                    break;
                case PRE_CONTACT:
                    progress("B holds the lock but has not contacted the sink yet");
                    lateWriteA(worker, "plain", "fenced");
                    writeB(asB, b, "plain", "fenced");
                    break;
                case CHECK_OUTSIDE_TRANSACTION:
                    writeB(asB, b, "plain");
                    raceInTheGap(worker, asB, asRunner, b);
                    break;
                default:
                    throw new IllegalStateException("no flow for case " + studyCase);
            }
            for (String mode : SinkServer.MODES) {
                Exchange read = asRunner.read(mode);
                calls.add(read);
                requireOk(read, "the final read of " + mode);
            }
            end = Times.nowMicros();
            finished = true;
            whenTimed.run();
        } finally {
            teardown(watcher, bKeepAlive, lockB, b, finished);
        }
        return evidence(started, aHolder, bHolder, expiry, stopAt, end);
    }

    private void lateWriteA(ChildProcess worker, String... modes) {
        // Queued while A is frozen: on SIGCONT it goes on with what it was about to do.
        worker.send("write " + LATE + " " + String.join(" ", modes));
        long resumedAt = Times.nowMicros();
        worker.resume();
        event("A", resumedAt, "SIGCONT", "resumed; it writes " + LATE + " with its old token, never checking its lease");
        JsonNode wrote = json(worker.await("WROTE", STEP_TIMEOUT));
        List<Exchange> writes = lateWrites(worker);
        progress("A resumed with SIGCONT and wrote %s with its old token %d: %s", LATE, wrote.get("token").asLong(), verdicts(writes));
    }

    private void writeB(SinkClient asB, Ownership b, String... modes) {
        List<Exchange> writes = asB.writeAll(List.of(modes), "B", b.token(), CURRENT);
        for (Exchange write : writes) {
            calls.add(write);
            requireOk(write, "B's write to " + write.mode());
            event("B", write.receivedAtMicros(), CURRENT + " → " + write.mode() + ": " + write.verdict(), "token " + b.token());
        }
        progress("B wrote %s with token %d: %s", CURRENT, b.token(), verdicts(writes));
    }

    private void restartSink() {
        ChildProcess old = prepared.sink();
        long pid = old.pid();
        long killedAt = Times.nowMicros();
        ChildProcess restarted = prepared.restartSink();
        event("sink", killedAt, "SIGKILL", "the sink server (pid " + pid + ") is killed: no shutdown, nothing flushed on the way out");
        JsonNode listening = json(restarted.await("LISTENING", START_TIMEOUT));
        long upAt = Times.nowMicros();
        event("sink", upAt, "restarted", "a new sink server (pid " + listening.get("pid").asLong() + ") over the same SQLite files");
        progress("sink server (pid %d) killed with SIGKILL and restarted (pid %d) over the same files in %s",
                pid, listening.get("pid").asLong(), Times.seconds(upAt - killedAt));
    }

    private void raceInTheGap(ChildProcess worker, SinkClient asB, SinkClient asRunner, Ownership b) {
        Exchange arm = asRunner.call("POST", "/control/hold-next-write", null);
        calls.add(arm);
        requireOk(arm, "arming the hold");
        worker.send("write " + LATE + " plain fenced");
        long resumedAt = Times.nowMicros();
        worker.resume();
        event("A", resumedAt, "SIGCONT", "resumed; it writes " + LATE + " with its old token, never checking its lease");
        JsonNode held = awaitHeld(asRunner);
        long heldAt = held.get("heldSinceMicros").asLong();
        event("sink", heldAt, "A's check passed, held", "the broken sink read mark " + held.get("markSeen").asLong()
                + " outside any transaction, found token " + held.get("heldToken").asLong() + " not older, and is held before its write");
        progress("A's fenced write passed the broken sink's check (mark %d) and is held between check and write",
                held.get("markSeen").asLong());
        writeB(asB, b, "fenced");
        Exchange release = asRunner.call("POST", "/control/release", null);
        calls.add(release);
        requireOk(release, "releasing the hold");
        event("sink", release.receivedAtMicros(), "hold released", "A's write goes on to its UPDATE, after B's commit");
        JsonNode wrote = json(worker.await("WROTE", STEP_TIMEOUT));
        progress("A's held write went on with its old token %d: %s", wrote.get("token").asLong(), verdicts(lateWrites(worker)));
    }

    private JsonNode awaitHeld(SinkClient asRunner) {
        long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Exchange held = asRunner.call("GET", "/control/held", null);
            requireOk(held, "asking whether A's write is held");
            if (held.response().path("holding").asBoolean(false)) {
                calls.add(held);
                return held.response();
            }
            sleepMillis(2);
        }
        throw new IllegalStateException("A's write to the fenced mode was not held within " + STEP_TIMEOUT.toSeconds() + " s");
    }

    private Evidence.Expiry awaitDeletion(ByteSequence key, long stopAt, long lastKeepAlive, long ttlLeft,
                                          CompletableFuture<long[]> watchSaw) {
        long deadline = stopAt + (ttlSeconds + 10) * 1_000_000L;
        long nextPoll = Times.nowMicros();
        long nextCountdown = stopAt + COUNTDOWN_MICROS;
        String watchFailure = null;
        Long pollSaw = null;
        while (true) {
            long now = Times.nowMicros();
            if (watchSaw.isDone() && watchFailure == null) {
                if (!watchSaw.isCompletedExceptionally()) {
                    break;
                }
                watchFailure = watchSaw.handle((saw, error) -> String.valueOf(error)).join();
                progress("the watch failed (%s); polling every %d ms instead", watchFailure, POLL_MICROS / 1000);
            }
            if (now >= nextPoll) {
                long count = Etcd.await(client.getKVClient().get(key, GetOption.builder().withCountOnly(true).build())).getCount();
                if (count == 0) {
                    pollSaw = Times.nowMicros();
                    break;
                }
                nextPoll = now + POLL_MICROS;
            }
            if (now >= nextCountdown) {
                long left = lastKeepAlive + ttlSeconds * 1_000_000L - now;
                if (left > 0) {
                    progress("lease countdown: %s of %d s left, A frozen", Times.seconds(left), ttlSeconds);
                } else {
                    progress("lease TTL ran out %s ago; waiting for etcd to expire it and delete the key", Times.seconds(-left));
                }
                nextCountdown += COUNTDOWN_MICROS;
            }
            if (now > deadline) {
                throw new IllegalStateException("the lock key was still there " + (ttlSeconds + 10) + " s after SIGSTOP:"
                        + " A's lease did not expire. Is A really frozen, and does tryAcquire attach the key to the lease?");
            }
            try {
                watchSaw.get(Math.min(5_000, Math.max(0, nextPoll - Times.nowMicros())), TimeUnit.MICROSECONDS);
            } catch (TimeoutException | ExecutionException stillWaitingOrFailed) {
                // Either the key is still there, or the watch failed: the loop's checks deal with both.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for A's lease to expire", e);
            }
        }
        long[] watched = watchSaw.isDone() && !watchSaw.isCompletedExceptionally() ? watchSaw.join() : null;
        String by = watched != null && (pollSaw == null || watched[0] <= pollSaw) ? "watch" : "poll";
        long observedAt = by.equals("watch") ? watched[0] : pollSaw;
        double wait = Times.millis(observedAt - stopAt);
        progress("key gone %s after SIGSTOP (seen by the %s%s; TTL %d s)", Times.seconds(observedAt - stopAt), by,
                watched == null ? "" : ", deleted at revision " + watched[1], ttlSeconds);
        return new Evidence.Expiry(by, stopAt, lastKeepAlive, observedAt, wait, Math.round((wait - ttlSeconds * 1000.0) * 10) / 10.0,
                watched == null ? null : watched[1], ttlLeft,
                watched == null ? null : Times.millis(watched[0] - stopAt), pollSaw == null ? null : Times.millis(pollSaw - stopAt));
    }

    private Ownership acquireB(EtcdLockService lockB) {
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (true) {
            Optional<Ownership> got = lockB.tryAcquire("B");
            if (got.isPresent()) {
                return got.get();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("B could not take the lock within 2 s of seeing the key gone");
            }
            sleepMillis(10);
        }
    }

    private StreamObserver<LeaseKeepAliveResponse> keepAliveEvents(String owner) {
        return new StreamObserver<>() {
            @Override
            public void onNext(LeaseKeepAliveResponse response) {
                // B's lease outlives the repeat's few hundred milliseconds; its refreshes are not part of the story.
            }

            @Override
            public void onError(Throwable error) {
                synchronized (events) {
                    events.add(new RawEvent(owner, Times.nowMicros(), "keepalive failed", String.valueOf(error.getMessage())));
                }
            }

            @Override
            public void onCompleted() {
                // The runner closes B's keepalive itself at the end of the repeat.
            }
        };
    }

    private void teardown(Watch.Watcher watcher, CloseableClient bKeepAlive, EtcdLockService lockB, Ownership b, boolean finished) {
        RuntimeException failure = null;
        try {
            if (watcher != null) {
                watcher.close();
            }
            if (bKeepAlive != null) {
                bKeepAlive.close();
            }
            if (b != null) {
                boolean deleted = lockB.release(b);
                event("B", Times.nowMicros(), "releases", deleted ? "deleted its key and revoked its lease" : "its key was already gone");
            }
            if (finished) {
                prepared.worker.send("exit");
                prepared.worker.await("BYE", Duration.ofSeconds(5));
            }
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            try {
                prepared.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private Evidence.Repeat evidence(JsonNode started, Evidence.Holder a, Evidence.Holder b, Evidence.Expiry observed, long stopAt, long end) {
        ChildProcess worker = prepared.worker;
        // A keepalive answered just before the freeze may have been read only after it: take the last one before SIGSTOP.
        long lastKeepAlive = observed.lastKeepAliveMicros();
        for (LogTail.Line line : worker.seen()) {
            if (line.type().equals("KEEPALIVE")) {
                long at = json(line).get("atMicros").asLong();
                if (at < stopAt) {
                    lastKeepAlive = Math.max(lastKeepAlive, at);
                }
            }
        }
        Evidence.Expiry expiry = new Evidence.Expiry(observed.observedBy(), observed.stopAtMicros(), lastKeepAlive,
                observed.observedAtMicros(), observed.waitAfterStopMillis(), observed.waitMinusTtlMillis(), observed.deleteRevision(),
                observed.etcdTtlLeftAtStop(), observed.watchSawMillis(), observed.pollSawMillis());
        for (LogTail.Line line : worker.seen()) {
            JsonNode body = json(line);
            switch (line.type()) {
                case "EXCHANGE":
                    calls.add(Json.convert(body, Exchange.class));
                    break;
                case "KEEPALIVE":
                    event("A", body.get("atMicros").asLong(), "keepalive", "etcd renewed A's lease to " + body.get("ttl").asLong() + " s");
                    break;
                case "LEASE-LOST":
                    event("A", body.get("atMicros").asLong(), "learns its lease is gone", body.get("error").asText());
                    break;
                case "KEEPALIVE-ENDED":
                    event("A", body.get("atMicros").asLong(), "keepalive gave up",
                            "on waking, jetcd saw the lease's deadline had passed; A does not consult it before writing");
                    break;
                default:
                    break;
            }
        }
        calls.sort(Comparator.comparingLong(Exchange::sentAtMicros));
        for (Exchange call : calls) {
            if (call.isWrite() && call.status() == 200) {
                JsonNode r = call.response();
                event("sink", call.decidedAtMicros(), r.get("mode").asText() + ": " + r.get("value").asText() + " (token " + r.get("token").asLong()
                                + ") " + r.get("verdict").asText(),
                        call.from() + "'s write; after it the mode holds " + r.path("after").path("value").asText() + " with mark "
                                + r.path("after").path("highWaterMark").asLong());
            }
        }
        Map<String, Evidence.ModeOutcome> modes = new LinkedHashMap<>();
        List<String> differences = new ArrayList<>();
        for (String mode : SinkServer.MODES) {
            Exchange aWrite = lateWrite(mode);
            Exchange finalRead = finalRead(mode);
            String aVerdict = aWrite == null ? "not sent" : aWrite.verdict();
            String finalValue = finalRead.response().path("value").isNull() ? null : finalRead.response().path("value").asText();
            long mark = finalRead.response().path("highWaterMark").asLong();
            String expectedVerdict = studyCase.expectedALateVerdict(mode);
            String expectedFinal = studyCase.expectedFinal(mode);
            boolean asExpected = aVerdict.equals(expectedVerdict) && Objects.equals(finalValue, expectedFinal);
            if (!aVerdict.equals(expectedVerdict)) {
                differences.add(mode + ": A's late write with token " + a.token() + " was " + aVerdict + ", expected " + expectedVerdict);
            }
            if (!Objects.equals(finalValue, expectedFinal)) {
                differences.add(mode + ": ended at " + finalValue + ", expected " + expectedFinal);
            }
            modes.put(mode, new Evidence.ModeOutcome(mode, finalRead.response().path("sink").asText(), aVerdict, expectedVerdict,
                    finalValue, expectedFinal, mark, asExpected));
        }
        for (Exchange call : calls) {
            if (call.isWrite() && call.from().equals("B") && !call.accepted()) {
                differences.add(call.mode() + ": B's write with token " + b.token() + " was " + call.verdict() + ", expected accepted");
            }
        }
        long fencedMark = modes.get("fenced").finalHighWaterMark();
        long expectedMark = studyCase == StudyCase.CHECK_OUTSIDE_TRANSACTION ? a.token() : b.token();
        if (fencedMark != expectedMark) {
            differences.add("fenced: ended with mark " + fencedMark + ", expected " + expectedMark
                    + (studyCase == StudyCase.CHECK_OUTSIDE_TRANSACTION ? " (A's token, set over B's by the broken sink)" : " (B's token)"));
        }
        if (studyCase == StudyCase.CHECK_OUTSIDE_TRANSACTION) {
            Exchange bFenced = calls.stream().filter(c -> c.isWrite() && c.from().equals("B") && c.mode().equals("fenced")).findFirst().orElse(null);
            Exchange aFenced = lateWrite("fenced");
            if (bFenced == null || aFenced == null || bFenced.decidedAtMicros() > aFenced.decidedAtMicros()) {
                differences.add("fenced: B's write did not commit before A's held write was stored, so the race was not shown");
            }
        }
        boolean pass = differences.isEmpty();
        Exchange aFenced = lateWrite("fenced");
        double ttlMillis = ttlSeconds * 1000.0;
        Evidence.Figures figures = new Evidence.Figures(
                aFenced == null ? null : Math.round((Times.millis(aFenced.receivedAtMicros() - stopAt) - ttlMillis) * 10) / 10.0,
                Math.round((Times.millis(end - start) - ttlMillis) * 10) / 10.0,
                Times.millis(end - start),
                started.get("startUpMillis").asDouble());
        String verdict = pass ? "PASS: " + summary(modes) : "FAIL: " + String.join("; ", differences);
        Map<String, String> files = new LinkedHashMap<>();
        files.put("workerLog", prepared.dir.relativize(worker.log()).toString());
        files.put("sinkDatabases", "sink/plain.db, sink/fenced.db");
        return new Evidence.Repeat(prepared.repeat, studyCase.label(), pass, differences, verdict, studyCase.explanation(),
                pass ? studyCase.contractNote() : null,
                prepared.key, ttlSeconds, a, b, expiry, start, end, figures, modes, timeline(), calls(), files);
    }

    private String summary(Map<String, Evidence.ModeOutcome> modes) {
        Evidence.ModeOutcome plain = modes.get("plain");
        Evidence.ModeOutcome fenced = modes.get("fenced");
        return "plain " + plain.aLateVerdict() + " A and ended at " + plain.finalValue() + "; fenced " + fenced.aLateVerdict()
                + " A and ended at " + fenced.finalValue() + " with mark " + fenced.finalHighWaterMark();
    }

    private List<Evidence.Event> timeline() {
        List<Evidence.Event> timeline = new ArrayList<>();
        synchronized (events) {
            for (RawEvent event : events) {
                timeline.add(new Evidence.Event(event.lane(), event.atMicros(), Times.millis(event.atMicros() - start), event.label(), event.detail()));
            }
        }
        timeline.sort(Comparator.comparingLong(Evidence.Event::atMicros));
        return timeline;
    }

    private List<Evidence.Call> calls() {
        List<Evidence.Call> records = new ArrayList<>();
        for (Exchange call : calls) {
            records.add(new Evidence.Call(call.from(), call.method(), call.path(), call.request(), call.status(), call.response(),
                    call.error(), call.sentAtMicros(), call.receivedAtMicros(), Times.millis(call.sentAtMicros() - start),
                    Times.millis(call.receivedAtMicros() - start), call.isWrite() ? call.verdict() : null));
        }
        return records;
    }

    private Exchange lateWrite(String mode) {
        return calls.stream().filter(c -> c.from().equals("A") && c.isWrite() && c.mode().equals(mode)).findFirst().orElse(null);
    }

    private Exchange finalRead(String mode) {
        Exchange last = null;
        for (Exchange call : calls) {
            if (call.from().equals("runner") && call.method().equals("GET") && call.path().equals("/sinks/" + mode)) {
                last = call;
            }
        }
        if (last == null) {
            throw new IllegalStateException("no final read of " + mode);
        }
        return last;
    }

    private List<Exchange> lateWrites(ChildProcess worker) {
        List<Exchange> writes = new ArrayList<>();
        for (LogTail.Line line : worker.seen()) {
            if (line.type().equals("EXCHANGE")) {
                Exchange exchange = Json.convert(json(line), Exchange.class);
                if (exchange.isWrite()) {
                    writes.add(exchange);
                }
            }
        }
        for (Exchange write : writes) {
            requireOk(write, "A's write to " + write.mode());
        }
        return writes;
    }

    private static String verdicts(List<Exchange> writes) {
        List<String> parts = new ArrayList<>();
        for (Exchange write : writes) {
            JsonNode after = write.response().path("after");
            parts.add(write.mode() + " " + write.verdict() + " (now " + after.path("value").asText() + ", mark " + after.path("highWaterMark").asLong() + ")");
        }
        return String.join(", ", parts);
    }

    private static void requireOk(Exchange exchange, String what) {
        if (exchange.status() != 200) {
            throw new IllegalStateException(what + " got " + exchange.verdict());
        }
    }

    private long lastKeepAlive(ChildProcess worker, long fallback) {
        long last = fallback;
        for (LogTail.Line line : worker.seen()) {
            if (line.type().equals("KEEPALIVE")) {
                last = Math.max(last, json(line).get("atMicros").asLong());
            }
        }
        return last;
    }

    private Evidence.Holder holder(String owner, long token, long leaseId, long acquiredAt, Long pid) {
        return new Evidence.Holder(owner, token, leaseId, hex(leaseId), acquiredAt, Times.millis(acquiredAt - start), pid);
    }

    private void event(String lane, long atMicros, String label, String detail) {
        synchronized (events) {
            events.add(new RawEvent(lane, atMicros, label, detail));
        }
    }

    private void progress(String format, Object... args) {
        out.printf(Locale.ROOT, "  %6s  %s%n", "+" + String.format(Locale.ROOT, "%.2f", (Times.nowMicros() - start) / 1e6), String.format(Locale.ROOT, format, args));
        out.flush();
    }

    static String hex(long leaseId) {
        return "0x" + Long.toHexString(leaseId);
    }

    private static JsonNode json(LogTail.Line line) {
        return Json.parse(line.json());
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
