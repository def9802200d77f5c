package fencing.lab;

import com.fasterxml.jackson.databind.node.ObjectNode;
import fencing.etcd.EtcdLockService;
import fencing.etcd.Ownership;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
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
 * <p>It talks in lines. On standard input it takes {@code acquire}, {@code write VALUE MODE...} and
 * {@code exit}; on standard output it says what happened, one line each, a word and a JSON object:
 * {@code STARTED}, {@code READY} (it holds the lock, its lease is kept alive and it has read the
 * sink), {@code KEEPALIVE}, {@code KEEPALIVE-ENDED} and {@code LEASE-LOST} (what jetcd says about
 * the lease), {@code EXCHANGE} (one call to the sink), {@code WROTE}, {@code ERROR} and {@code BYE}. It never checks its lease before writing: like a
 * process that was paused, it still believes it holds the lock, and only the sink can tell it otherwise.
 */
@Command(name = "worker", mixinStandardHelpOptions = true,
        description = "Takes the lock with EtcdLockService, keeps its lease alive and writes to the sink when told to.")
public final class Worker implements Callable<Integer> {

    private static final long TIMEOUT_SECONDS = 5;

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

    private Ownership ownership;
    private CloseableClient keepAlive;

    /** Runs the worker: {@code --endpoints URLS --key KEY --sink URL [--name A] [--ttl 2]}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new Worker()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        try (Client client = Client.builder().endpoints(endpoints.split(",")).connectTimeout(Duration.ofSeconds(TIMEOUT_SECONDS)).build()) {
            // Connect now, so that acquiring later costs one round trip and not a start-up.
            client.getKVClient().get(ByteSequence.from(key, StandardCharsets.UTF_8)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            SinkClient sinkClient = new SinkClient(sink, name);
            warmUp(sinkClient);
            ObjectNode started = Json.object();
            started.put("pid", ProcessHandle.current().pid());
            long startedMillis = ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli).orElse(System.currentTimeMillis());
            started.put("processStartMicros", startedMillis * 1_000);
            started.put("startUpMillis", System.currentTimeMillis() - startedMillis);
            say("STARTED", started);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                List<String> words = Arrays.asList(line.trim().split("\\s+"));
                switch (words.get(0)) {
                    case "acquire":
                        acquire(client, sinkClient);
                        break;
                    case "write":
                        write(sinkClient, words);
                        break;
                    case "exit":
                        say("BYE", Json.object().put("reason", "told to exit"));
                        return 0;
                    default:
                        throw new IllegalArgumentException("unknown command '" + line + "': use acquire, write VALUE MODE... or exit");
                }
            }
            say("BYE", Json.object().put("reason", "standard input closed: the runner is gone"));
            return 0;
        } catch (Exception e) {
            ObjectNode error = Json.object();
            error.put("type", e.getClass().getName());
            error.put("message", String.valueOf(e.getMessage()));
            say("ERROR", error);
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

    private void acquire(Client client, SinkClient sinkClient) throws Exception {
        if (ownership != null) {
            throw new IllegalStateException("already acquired: token " + ownership.token());
        }
        EtcdLockService lock = new EtcdLockService(client, key, ttl);
        long asked = Times.nowMicros();
        Optional<Ownership> got = lock.tryAcquire(name);
        long acquired = Times.nowMicros();
        ownership = got.orElseThrow(() -> new IllegalStateException("the lock " + key + " is held by someone else"));
        CompletableFuture<Long> firstKeepAlive = new CompletableFuture<>();
        keepAlive = client.getLeaseClient().keepAlive(ownership.leaseId(), new StreamObserver<>() {
            @Override
            public void onNext(LeaseKeepAliveResponse response) {
                long at = Times.nowMicros();
                ObjectNode event = Json.object();
                event.put("leaseId", response.getID());
                event.put("ttl", response.getTTL());
                event.put("atMicros", at);
                say("KEEPALIVE", event);
                firstKeepAlive.complete(at);
            }

            @Override
            public void onError(Throwable error) {
                ObjectNode event = Json.object();
                event.put("leaseId", ownership.leaseId());
                event.put("error", String.valueOf(error.getMessage()));
                event.put("atMicros", Times.nowMicros());
                say("LEASE-LOST", event);
                firstKeepAlive.completeExceptionally(error);
            }

            @Override
            public void onCompleted() {
                ObjectNode event = Json.object();
                event.put("leaseId", ownership.leaseId());
                event.put("atMicros", Times.nowMicros());
                say("KEEPALIVE-ENDED", event);
            }
        });
        long kept = firstKeepAlive.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        for (String mode : SinkServer.MODES) {
            say("EXCHANGE", Json.MAPPER.valueToTree(sinkClient.read(mode)));
        }
        ObjectNode ready = Json.object();
        ready.put("owner", ownership.owner());
        ready.put("token", ownership.token());
        ready.put("leaseId", ownership.leaseId());
        ready.put("ttl", ttl);
        ready.put("key", key);
        ready.put("askedAtMicros", asked);
        ready.put("acquiredAtMicros", acquired);
        ready.put("firstKeepAliveAtMicros", kept);
        ready.put("readyAtMicros", Times.nowMicros());
        say("READY", ready);
    }

    private void write(SinkClient sinkClient, List<String> words) {
        if (ownership == null) {
            throw new IllegalStateException("told to write before acquiring");
        }
        if (words.size() < 3) {
            throw new IllegalArgumentException("write needs a value and at least one mode: write VALUE MODE...");
        }
        String value = words.get(1);
        int accepted = 0;
        // No lease check here on purpose: A still believes it holds the lock.
        for (Exchange exchange : sinkClient.writeAll(words.subList(2, words.size()), name, ownership.token(), value)) {
            say("EXCHANGE", Json.MAPPER.valueToTree(exchange));
            accepted += exchange.accepted() ? 1 : 0;
        }
        ObjectNode wrote = Json.object();
        wrote.put("value", value);
        wrote.put("token", ownership.token());
        wrote.put("accepted", accepted);
        wrote.put("atMicros", Times.nowMicros());
        say("WROTE", wrote);
    }

    private static synchronized void say(String type, ObjectNode body) {
        System.out.println(type + " " + Json.compact(body));
        System.out.flush();
    }
}
