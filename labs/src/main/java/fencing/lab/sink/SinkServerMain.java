package fencing.lab.sink;

import fencing.lab.Json;
import fencing.lab.Times;
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
        description = "Serves the plain and fenced sinks over HTTP on loopback until killed.")
final class SinkServerMain implements Callable<Integer> {

    @Option(names = "--dir", required = true, description = "Directory of plain.db and fenced.db.")
    Path dir;

    @Option(names = "--port", defaultValue = "0", description = "Port on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--fenced-sink", defaultValue = "fenced",
            description = "fenced (FencedSink) or check-outside-transaction (the broken teaching sink). Default: ${DEFAULT-VALUE}.")
    String fencedSink;

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
        Channel parent = System.getProperty(Channel.PORT_PROPERTY) == null ? null : Channel.connectToParent(Duration.ofSeconds(30));
        SinkServer server;
        try {
            server = SinkServer.start(dir, port, variant, System.out);
        } catch (Exception e) {
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
        var ready = server.health();
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
