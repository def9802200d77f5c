package fencing.lab.sink;

import com.fasterxml.jackson.databind.node.ObjectNode;
import fencing.lab.common.Json;
import fencing.lab.common.Times;
import fencing.support.Channel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs the sink server as its own process, so that it can be killed and restarted over the same files.
 *
 * <p>It prints {@code LISTENING {json}} once it answers; started by the lab's runner (with a channel),
 * it also says so, or why it failed, over the channel.
 */
@Command(name = "sink-server", mixinStandardHelpOptions = true,
        description = "Serves the plain and fenced sinks (and current-owner, given etcd and the lock key) and the ledgers over HTTP"
                + " on loopback until killed.")
final class SinkServerMain implements Callable<Integer> {

    @Option(names = "--dir", required = true, description = "Directory of the database files (plain.db, fenced.db, current-owner.db, counter.db, ledger.db).")
    Path dir;

    @Option(names = "--port", defaultValue = "0", description = "Port on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--fenced-sink", defaultValue = "fenced",
            description = "fenced (FencedSink) or check-outside-transaction (the broken teaching sink). Default: ${DEFAULT-VALUE}.")
    String fencedSink;

    @Option(names = "--etcd-endpoints", paramLabel = "URLS",
            description = "etcd's client URLs, comma-separated: with --lock-key, adds the current-owner mode (OwnerCheckingSink asking EtcdOwnerCheck).")
    String etcdEndpoints;

    @Option(names = "--lock-key", paramLabel = "KEY", description = "The lock key whose holder the current-owner mode asks about.")
    String lockKey;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--port must be 0..65535, got " + port);
        }
        FencedVariant variant;
        try {
            variant = FencedVariant.of(fencedSink);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
        }
        if ((etcdEndpoints == null) != (lockKey == null)) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--etcd-endpoints and --lock-key go together: the current-owner mode needs both, or leave out both");
        }
        Channel parent = System.getProperty(Channel.PORT_PROPERTY) == null ? null : Channel.connectToParent(Duration.ofSeconds(30));
        SinkServer server;
        EtcdOwners owners = null;
        try {
            owners = etcdEndpoints == null ? null : new EtcdOwners(etcdEndpoints, lockKey);
            server = SinkServer.start(dir, port, variant, owners, System.out);
        } catch (Exception e) {
            if (owners != null) {
                owners.close();
            }
            if (parent != null) {
                parent.send(new SinkReport.Failed(e.getClass().getName(), String.valueOf(e.getMessage())));
            }
            throw e;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "stop sink server"));
        ObjectNode ready = Json.MAPPER.valueToTree(server.health());
        ready.put("port", server.port());
        long started = Times.nowMicros();
        ready.put("startedAtMicros", started);
        System.out.println("LISTENING " + Json.compact(ready));
        System.out.flush();
        if (parent != null) {
            parent.send(new SinkReport.Listening(ProcessHandle.current().pid(), server.port(), started, server.notImplementedYet()));
        }
        stopped.await();
        return 0;
    }
}
