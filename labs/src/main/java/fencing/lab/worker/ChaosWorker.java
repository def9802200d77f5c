package fencing.lab.worker;

import fencing.etcd.EtcdLockService;
import fencing.etcd.Ownership;
import fencing.lab.common.Times;
import fencing.lab.history.HistoryLine;
import fencing.lab.sink.Exchange;
import fencing.lab.sink.SinkClient;
import fencing.support.Channel;
import fencing.support.evidence.SinkReply;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A chaos writer: a process that loops (take the lock, write a few values with its token to every mode, release) and records every request.
 *
 * <p>It says {@link WorkerReport.Started} once connected, loops when told {@link WorkerCommand.Loop} until
 * the command's end, and says {@link WorkerReport.Bye}. Each acquisition, write and release goes to its
 * history file as one {@link HistoryLine} as soon as it is done, ending with a {@code writer-end} line that counts
 * its writes; the runner merges the writers' files. Like worker A, it never checks its lease before a write:
 * a writer frozen mid-hold goes on with its old token when it is thawed, and one cut off from etcd mid-hold writes on
 * with it while its lease runs out, since its path to the sink is open. A writer that finds the lock held waits for its
 * key's deletion ({@link LockFreed}) before it tries again, as etcd's own lock recipe waits, so that the writers waiting
 * do not take the CPU from the one holding.
 */
@Command(name = "chaos-worker", mixinStandardHelpOptions = true, description = "Loops: acquire, write to every mode, release; records each request.")
public final class ChaosWorker implements Callable<Integer> {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** How long a writer that lost the race waits for the lock key's deletion before it tries again anyway. */
    private static final Duration RETRY_AT_MOST_EVERY = Duration.ofMillis(100);

    @Option(names = "--name", required = true, description = "The writer's name, e.g. w1.")
    String name;

    @Option(names = "--endpoints", required = true, description = "etcd client URLs, comma-separated.")
    String endpoints;

    @Option(names = "--key", required = true, description = "The lock key.")
    String key;

    @Option(names = "--ttl", defaultValue = "2", description = "The lease's time to live in seconds (default: ${DEFAULT-VALUE}).")
    long ttl;

    @Option(names = "--sink", required = true, description = "The sink server's address.")
    URI sink;

    @Option(names = "--history", required = true, description = "The file this writer records its requests in.")
    Path history;

    private BufferedWriter out;
    private int writes;

    /** Runs the writer, started by the chaos runner with a channel. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ChaosWorker()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Channel runner = Channel.connectToParent(TIMEOUT);
        try (Client client = Client.builder().endpoints(endpoints.split(",")).connectTimeout(TIMEOUT).build();
             LockFreed freed = LockFreed.watch(client, key);
             BufferedWriter file = Files.newBufferedWriter(history, StandardCharsets.UTF_8)) {
            out = file;
            SinkClient sinkClient = new SinkClient(sink, name);
            // Connect now, with room for a slow start while the other writers' JVMs start too.
            client.getKVClient().get(ByteSequence.from(key, StandardCharsets.UTF_8)).get(Worker.SET_UP_SECONDS, TimeUnit.SECONDS);
            EtcdLockService lock = new EtcdLockService(client, key, ttl);
            runner.send(new WorkerReport.Started(ProcessHandle.current().pid(), Times.nowMicros(), 0));
            WorkerCommand.Loop loop = (WorkerCommand.Loop) runner.receive(WorkerCommand.class, Duration.ofMinutes(2));
            int rounds = 0;
            while (Times.nowMicros() < loop.untilMicros()) {
                Optional<Ownership> got;
                freed.reset();
                try {
                    got = lock.tryAcquire(name);
                } catch (IllegalStateException unanswered) {
                    // A freeze or a cut from etcd during the call outlasts its timeout; what etcd did is unknown, and a key it made
                    // expires with its lease.
                    line(new HistoryLine.AcquireFailed(name, String.valueOf(unanswered.getMessage()), Times.nowMicros()));
                    continue;
                }
                if (got.isEmpty()) {
                    freed.await(RETRY_AT_MOST_EVERY);
                    continue;
                }
                hold(client, lock, got.get(), sinkClient, loop, rounds++);
            }
            line(new HistoryLine.WriterEnd(name, writes, rounds));
            out.flush();
            runner.send(new WorkerReport.Bye("looped " + rounds + " times, " + writes + " writes"));
            return 0;
        } catch (Exception e) {
            runner.send(new WorkerReport.Failed(e.getClass().getName(), String.valueOf(e.getMessage())));
            throw e;
        }
    }

    private void hold(Client client, EtcdLockService lock, Ownership ownership, SinkClient sinkClient, WorkerCommand.Loop loop, int round)
            throws IOException {
        String lease = "0x" + Long.toHexString(ownership.leaseId());
        line(new HistoryLine.Acquired(name, ownership.token(), lease, Times.nowMicros()));
        CloseableClient keepAlive = client.getLeaseClient().keepAlive(ownership.leaseId(), new StreamObserver<LeaseKeepAliveResponse>() {
            @Override
            public void onNext(LeaseKeepAliveResponse response) {
                // Renewals are etcd's business; the history records what the writer did with its token.
            }

            @Override
            public void onError(Throwable error) {
                // A lease lost while frozen or cut off: the writer goes on regardless, as a paused or partitioned process would.
            }

            @Override
            public void onCompleted() {
                // As above.
            }
        });
        try {
            for (int i = 0; i < loop.values(); i++) {
                String value = name + "-" + ownership.token() + "-" + round + "-" + i;
                for (Exchange exchange : sinkClient.writeAll(loop.modes(), name, ownership.token(), value)) {
                    line(write(ownership.token(), lease, value, exchange));
                    writes++;
                }
            }
        } finally {
            keepAlive.close();
        }
        Boolean deleted = null;
        String error = null;
        try {
            deleted = lock.release(ownership);
        } catch (IllegalStateException unanswered) {
            // As with an acquire: the key goes with the lease if the release did not get through.
            error = String.valueOf(unanswered.getMessage());
        }
        line(new HistoryLine.Released(name, ownership.token(), lease, deleted, error, Times.nowMicros()));
    }

    /** Returns the line for one write: the sink's verdict and the mode's state after it when it gave one, else what came instead. */
    private HistoryLine.Write write(long token, String lease, String value, Exchange exchange) {
        SinkReply.WriteVerdict answer = exchange.status() == 200 && exchange.response() instanceof SinkReply.WriteVerdict given ? given : null;
        SinkReply.ModeAfter after = answer == null ? null : answer.after();
        HistoryLine.Write.Verdict verdict = answer == null ? HistoryLine.Write.Verdict.ERROR
                : answer.accepted() ? HistoryLine.Write.Verdict.ACCEPTED : HistoryLine.Write.Verdict.REJECTED;
        return new HistoryLine.Write(name, token, lease, exchange.mode(), value, exchange.sentAtMicros(), exchange.receivedAtMicros(),
                verdict, after, after == null ? exchange.verdict() : null);
    }

    private void line(HistoryLine line) throws IOException {
        out.write(line.json());
        out.newLine();
    }
}
