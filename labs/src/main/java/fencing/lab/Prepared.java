package fencing.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * The two processes one repeat needs, started ahead of it: worker A and the sink server.
 *
 * <p>Starting a JVM that builds a jetcd client takes seconds, so the study starts the next
 * repeat's processes as soon as the current repeat's timed part is over (while it tears down), and
 * a repeat's clock starts only when its worker, already connected, is told to acquire. Starting
 * them earlier, during the pause, would put their start-up's CPU load on the critical path of a
 * two-core machine.
 */
final class Prepared implements AutoCloseable {

    final int repeat;
    final Path dir;
    final String key;
    final int port;
    final ChildProcess worker;
    private final String classPath;
    private final StudyCase studyCase;
    private ChildProcess sink;
    private int sinkStarts;

    private Prepared(int repeat, Path dir, String key, int port, ChildProcess worker, ChildProcess sink, String classPath,
                     StudyCase studyCase) {
        this.repeat = repeat;
        this.dir = dir;
        this.key = key;
        this.port = port;
        this.worker = worker;
        this.sink = sink;
        this.classPath = classPath;
        this.studyCase = studyCase;
        this.sinkStarts = 1;
    }

    /** Starts worker A and the sink server for {@code repeat}, in {@code dir}; returns at once. */
    static Prepared start(int repeat, Path dir, StudyCase studyCase, String endpoints, long ttlSeconds, String classPath) {
        int port = freePort();
        String key = fencing.support.Etcd.uniqueKey("lab-" + studyCase.label() + "-repeat-" + repeat);
        ChildProcess sink = startSink(dir, port, studyCase, classPath, "sink-server.log");
        ChildProcess worker = null;
        try {
            worker = ChildProcess.start("worker A", classPath, Worker.class, List.of(
                    "--name", "A", "--endpoints", endpoints, "--key", key, "--ttl", Long.toString(ttlSeconds),
                    "--sink", "http://127.0.0.1:" + port), dir.resolve("worker-A.log"), true);
        } catch (IOException e) {
            sink.close();
            throw new UncheckedIOException("could not start worker A for repeat " + repeat, e);
        }
        return new Prepared(repeat, dir, key, port, worker, sink, classPath, studyCase);
    }

    private static ChildProcess startSink(Path dir, int port, StudyCase studyCase, String classPath, String logName) {
        try {
            return ChildProcess.start("sink server", classPath, SinkServer.class, List.of(
                    "--dir", dir.resolve("sink").toString(), "--port", Integer.toString(port),
                    "--fenced-sink", studyCase.fencedVariant().label()), dir.resolve(logName), false);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the sink server in " + dir, e);
        }
    }

    ChildProcess sink() {
        return sink;
    }

    URI sinkUri() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** Kills the sink server with SIGKILL and starts a new one over the same files and port; returns at once. */
    ChildProcess restartSink() {
        sink.kill();
        sinkStarts++;
        sink = startSink(dir, port, studyCase, classPath, "sink-server-" + sinkStarts + ".log");
        return sink;
    }

    @Override
    public void close() {
        try {
            worker.close();
        } finally {
            sink.close();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }
}
