package fencing.lab.worker;

import fencing.etcd.EtcdLockService;
import fencing.etcd.Ownership;
import fencing.lab.common.Times;
import fencing.lab.sink.Exchange;
import fencing.lab.sink.Mode;
import fencing.lab.sink.SinkClient;
import fencing.support.Channel;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Worker A: a separate process that takes the lock, keeps its lease alive, and writes when told to.
 *
 * <p>It talks to the runner over a {@link Channel}: it takes {@link WorkerCommand}s and says what happened
 * as {@link WorkerReport}s ({@code Started}, {@code Ready} once it holds the lock, keeps its lease alive and
 * has read the sink, the keepalive's news, every call to the sink, {@code Wrote}, {@code Failed} and
 * {@code Bye}). Told to {@code Write}, it never checks its lease: like a process that was paused, it still
 * believes it holds the lock, and only the sink can tell it otherwise. Told to {@code AcquireTimed} instead, it does not keep
 * its lease alive and trusts a {@link LeaseTimer} on a clock of its own, which may run slow. Started with {@code --forged-token},
 * it is the forged case's C instead: it never takes the lock, and writes with the token it was given.
 */
@Command(name = "worker", mixinStandardHelpOptions = true,
        description = "Takes the lock with EtcdLockService, keeps its lease alive and writes to the sink when told to.")
public final class Worker implements Callable<Integer> {

    private static final long TIMEOUT_SECONDS = 5;
    /**
     * The bound on a worker's set-up calls (this one's and {@link ChaosWorker}'s), before it says it is ready: its first
     * call to etcd loads and compiles the client's code, and its lease's first keep-alive comes over a new stream, which on
     * a busy machine take seconds.
     */
    static final long SET_UP_SECONDS = 60;

    @Option(names = "--name", defaultValue = "A", description = "The writer's name (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(names = "--endpoints", required = true, description = "etcd client URLs, comma-separated.")
    String endpoints;

    @Option(names = "--key", required = true, description = "The lock key.")
    String key;

    @Option(names = "--ttl", defaultValue = "2", description = "The lease's time to live in seconds (default: ${DEFAULT-VALUE}).")
    long ttl;

    @Option(names = "--sink", required = true, description = "The sink server's address, e.g. http://127.0.0.1:40123.")
    URI sink;

    @Option(names = "--forged-token", paramLabel = "T",
            description = "Never take the lock: write with token T, made up (the forged case's C).")
    Long forgedToken;

    private Channel runner;
    private Ownership ownership;
    private volatile CloseableClient keepAlive;
    private LeaseTimer timer;
    private double clockRate;
    private long askedAtMicros;
    private volatile long lastKeepAliveMicros;

    /** Runs the worker, started by the runner with a channel: {@code --endpoints URLS --key KEY --sink URL [--name A] [--ttl 2]}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new Worker()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        runner = Channel.connectToParent(Duration.ofSeconds(TIMEOUT_SECONDS));
        try (Client client = Client.builder().endpoints(endpoints.split(",")).connectTimeout(Duration.ofSeconds(TIMEOUT_SECONDS)).build()) {
            // Connect now, so that acquiring later costs one round trip and not a start-up.
            client.getKVClient().get(ByteSequence.from(key, StandardCharsets.UTF_8)).get(SET_UP_SECONDS, TimeUnit.SECONDS);
            SinkClient sinkClient = new SinkClient(sink, name);
            warmUp(sinkClient);
            long startedMillis = ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli).orElse(System.currentTimeMillis());
            say(new WorkerReport.Started(ProcessHandle.current().pid(), startedMillis * 1_000, System.currentTimeMillis() - startedMillis));
            while (true) {
                WorkerCommand command;
                try {
                    // A repeat waits for the lease to expire in between, so a quiet runner is normal; a gone one is not.
                    command = runner.receive(WorkerCommand.class, Duration.ofMinutes(10));
                } catch (Channel.Closed gone) {
                    sayIfConnected(new WorkerReport.Bye("the channel closed: the runner is gone"));
                    return 0;
                }
                if (command instanceof WorkerCommand.Acquire acquire) {
                    acquire(client, sinkClient, acquire.modes(), null);
                } else if (command instanceof WorkerCommand.AcquireTimed acquire) {
                    acquire(client, sinkClient, acquire.modes(), acquire.clockRate());
                } else if (command instanceof WorkerCommand.WriteIfTimerSaysValid write) {
                    writeIfTimerSaysValid(sinkClient, write);
                } else if (command instanceof WorkerCommand.Write write) {
                    write(sinkClient, write);
                } else if (command instanceof WorkerCommand.Loop) {
                    throw new IllegalStateException("worker A does not loop: the loop is for chaos writers");
                } else {
                    say(new WorkerReport.Bye("told to exit"));
                    return 0;
                }
            }
        } catch (Exception e) {
            sayIfConnected(new WorkerReport.Failed(e.getClass().getName(), String.valueOf(e.getMessage())));
            throw e;
        } finally {
            if (keepAlive != null) {
                keepAlive.close();
            }
        }
    }

    /** Waits for the sink server (it starts alongside this worker) and readies the HTTP client on the way. */
    private void warmUp(SinkClient sinkClient) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Exchange health = sinkClient.call("GET", "/health", null);
        while (health.status() != 200) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the sink server at " + sink + " did not answer within 60 s: " + health.verdict());
            }
            Thread.sleep(20);
            health = sinkClient.call("GET", "/health", null);
        }
    }

    /** Takes the lock; with a {@code clockRate}, starts a timer on a clock at that rate instead of keeping the lease alive. */
    private void acquire(Client client, SinkClient sinkClient, List<Mode> modes, Double clockRate) throws Exception {
        if (forgedToken != null) {
            throw new IllegalStateException(name + " never takes the lock: it writes with the token it made up, " + forgedToken);
        }
        if (ownership != null) {
            throw new IllegalStateException("already acquired: token " + ownership.token());
        }
        EtcdLockService lock = new EtcdLockService(client, key, ttl);
        // Started before asking, as a careful client does: the lease's TTL runs from its grant, which comes later.
        LeaseTimer started = clockRate == null ? null
                : LeaseTimer.start(LeaseTimer.LocalClock.atRate(clockRate, System::nanoTime), Duration.ofSeconds(ttl));
        long asked = Times.nowMicros();
        Optional<Ownership> got = lock.tryAcquire(name);
        long acquired = Times.nowMicros();
        ownership = got.orElseThrow(() -> new IllegalStateException("the lock " + key + " is held by someone else"));
        long leaseId = ownership.leaseId();
        if (started != null) {
            timer = started;
            this.clockRate = clockRate;
            askedAtMicros = asked;
            readAll(sinkClient, modes);
            say(new WorkerReport.Ready(ownership.owner(), ownership.token(), leaseId, ttl, key, asked, acquired, acquired, Times.nowMicros()));
            return;
        }
        CompletableFuture<Long> firstKeepAlive = new CompletableFuture<>();
        keepAlive = client.getLeaseClient().keepAlive(leaseId, new StreamObserver<>() {
            @Override
            public void onNext(LeaseKeepAliveResponse response) {
                long at = Times.nowMicros();
                lastKeepAliveMicros = at;
                sayIfConnected(new WorkerReport.KeepAlive(response.getID(), response.getTTL(), at));
                firstKeepAlive.complete(at);
            }

            @Override
            public void onError(Throwable error) {
                sayIfConnected(new WorkerReport.LeaseLost(leaseId, String.valueOf(error.getMessage()), Times.nowMicros()));
                firstKeepAlive.completeExceptionally(error);
            }

            @Override
            public void onCompleted() {
                sayIfConnected(new WorkerReport.KeepAliveEnded(leaseId, Times.nowMicros()));
            }
        });
        long kept = firstKeepAlive.get(SET_UP_SECONDS, TimeUnit.SECONDS);
        readAll(sinkClient, modes);
        say(new WorkerReport.Ready(ownership.owner(), ownership.token(), leaseId, ttl, key, asked, acquired, kept, Times.nowMicros()));
    }

    private void readAll(SinkClient sinkClient, List<Mode> modes) throws IOException {
        for (Mode mode : modes) {
            say(new WorkerReport.Called(sinkClient.read(mode)));
        }
    }

    /** Writes only if A's own timer says its lease is valid: the check many clients make, on A's clock alone. */
    private void writeIfTimerSaysValid(SinkClient sinkClient, WorkerCommand.WriteIfTimerSaysValid write) throws IOException {
        if (timer == null) {
            throw new IllegalStateException("told to check a lease timer, but the lock was not taken with one");
        }
        LeaseTimer.Reading reading = timer.read();
        long at = Times.nowMicros();
        say(new WorkerReport.TimerChecked(ownership.leaseId(), clockRate, timer.ttl().toMillis(), at,
                at - askedAtMicros, reading.elapsed().toNanos() / 1_000, reading.saysValid()));
        if (reading.saysValid()) {
            write(sinkClient, new WorkerCommand.Write(write.value(), write.modes()));
        }
    }

    private void write(SinkClient sinkClient, WorkerCommand.Write write) throws IOException {
        if (ownership == null && forgedToken == null) {
            throw new IllegalStateException("told to write before acquiring");
        }
        long token = forgedToken != null ? forgedToken : ownership.token();
        if (write.modes().isEmpty()) {
            throw new IllegalArgumentException("a write needs at least one mode");
        }
        int accepted = 0;
        if (ownership != null && lastKeepAliveMicros > 0) {
            // The log says what A believed as it wrote: a process cut off from etcd holds the same belief as a paused one.
            System.out.println(Times.iso(Times.nowMicros()) + " " + name + " believes it holds the lock with token " + token
                    + "; its last keepalive was answered " + Times.seconds(Times.nowMicros() - lastKeepAliveMicros)
                    + " ago, and it writes without asking etcd");
        }
        // No lease check here on purpose: A still believes it holds the lock.
        for (Exchange exchange : sinkClient.writeAll(write.modes(), name, token, write.value())) {
            say(new WorkerReport.Called(exchange));
            accepted += exchange.accepted() ? 1 : 0;
        }
        say(new WorkerReport.Wrote(write.value(), token, accepted, Times.nowMicros()));
    }

    private void say(WorkerReport report) throws IOException {
        logged(report);
        runner.send(report);
    }

    /** Prints {@code report} to the worker's log as well, so that the log tells what A did in the order it did it. */
    private static void logged(WorkerReport report) {
        System.out.println(Times.iso(Times.nowMicros()) + " " + report);
        System.out.flush();
    }

    /** Says {@code report} from a callback or a failure, where there is no one to throw to: a runner that is gone hears nothing. */
    private void sayIfConnected(WorkerReport report) {
        if (runner == null) {
            return;
        }
        try {
            logged(report);
            runner.send(report);
        } catch (IOException runnerGone) {
            System.err.println("could not tell the runner " + report + ": " + runnerGone.getMessage());
        }
    }
}
