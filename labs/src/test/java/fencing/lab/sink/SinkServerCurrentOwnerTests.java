package fencing.lab.sink;

import static fencing.lab.sink.SeededSinkServer.reply;
import static org.assertj.core.api.Assertions.assertThat;

import fencing.etcd.EtcdLockService;
import fencing.etcd.Ownership;
import fencing.sink.ConnectionSource;
import fencing.sink.PlainSink;
import fencing.sink.SinkState;
import fencing.support.Etcd;
import fencing.support.evidence.SinkReply;
import io.etcd.jetcd.Client;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The sink server's current-owner mode on a real etcd: OwnerCheckingSink asking EtcdOwnerCheck who holds the lock now. */
@Tag("etcd")
@Timeout(60)
class SinkServerCurrentOwnerTests {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final long FORGED = 1_000_000_000_000L;

    @TempDir
    Path dir;

    private Client client;
    private EtcdLockService lock;
    private Ownership b;
    private SinkServer server;

    @BeforeEach
    void startServerOnALockHeldByB() throws Exception {
        Etcd etcd = Etcd.shared();
        String key = Etcd.uniqueKey("sink-server-current-owner");
        client = etcd.newClient();
        lock = new EtcdLockService(client, key, 10);
        b = lock.tryAcquire("B").orElseThrow(() -> new AssertionError("B could not take the fresh lock " + key));
        server = SinkServer.start(dir, 0, FencedVariant.FENCED, new EtcdOwners(etcd.endpoints(), key), new PrintStream(OutputStream.nullOutputStream()));
    }

    @AfterEach
    void stopEverything() {
        try {
            server.close();
        } finally {
            try {
                if (b != null) {
                    lock.release(b);
                }
            } finally {
                client.close();
            }
        }
    }

    @Test
    @DisplayName("A forged token is accepted by the fenced mode, which then locks B out, and rejected by current-owner, which accepts B")
    void aForgedTokenLocksTheFencedModeOutButNotTheCurrentOwnerMode() throws Exception {
        SinkReply.WriteVerdict forgedFenced = write("fenced", "C", FORGED, "C-forged");
        SinkReply.WriteVerdict forgedCurrent = write("current-owner", "C", FORGED, "C-forged");
        SinkReply.WriteVerdict bFenced = write("fenced", "B", b.token(), "B-current");
        SinkReply.WriteVerdict bCurrent = write("current-owner", "B", b.token(), "B-current");

        assertThat(forgedFenced.verdict()).as("a high-water mark trusts any token above it: %s", forgedFenced).isEqualTo("accepted");
        assertThat(forgedCurrent.verdict()).as("token %d is not the lock key's create_revision: %s", FORGED, forgedCurrent)
                .isEqualTo("rejected");
        assertThat(forgedCurrent.after().highWaterMark()).as("the rejected forged write leaves the mark: %s", forgedCurrent)
                .isZero();
        assertThat(bFenced.verdict()).as("B's real token %d is below the forged mark: locked out (%s)", b.token(), bFenced)
                .isEqualTo("rejected");
        assertThat(bCurrent.verdict()).as("B holds the lock, created at revision %d: %s", b.token(), bCurrent).isEqualTo("accepted");
        assertThat(new PlainSink(ConnectionSource.sqlite(dir.resolve("current-owner.db"))).read()).as("current-owner.db holds B's write")
                .isEqualTo(new SinkState("B-current", b.token()));
    }

    @Test
    @DisplayName("Once B has released the lock, current-owner rejects B's token, which the fenced mode still accepts")
    void rejectsAReleasedHoldersToken() throws Exception {
        lock.release(b);
        long released = b.token();
        b = null;

        SinkReply.WriteVerdict current = write("current-owner", "B", released, "B-after-release");
        SinkReply.WriteVerdict fenced = write("fenced", "B", released, "B-after-release");

        assertThat(current.verdict()).as("no one holds the lock, so token %d is no one's now: %s", released, current).isEqualTo("rejected");
        assertThat(fenced.verdict()).as("the fenced mode has seen nothing newer than %d: %s", released, fenced).isEqualTo("accepted");
    }

    @Test
    @DisplayName("The health names the owner check, its etcd and lock key; a bad write to current-owner gets 400 and changes nothing")
    void saysItsOwnerCheckAndRejectsABadWrite() throws Exception {
        SinkReply.Health health = reply(send("GET", "/health", null), SinkReply.Health.class);
        HttpResponse<String> bad = send("POST", "/sinks/current-owner/write", "{\"writer\":\"B\",\"token\":\"8\",\"value\":\"x\"}");

        assertThat(health.modes().get("current-owner")).as("the mode's sink: %s", health).isEqualTo("fencing.sink.OwnerCheckingSink");
        assertThat(health.currentOwner().ownerCheck()).as("the owner check: %s", health).isEqualTo("fencing.etcd.EtcdOwnerCheck");
        assertThat(health.notImplementedYet()).as("nothing is a stub here: %s", health).isNullOrEmpty();
        assertThat(bad.statusCode()).as("a token in a string: %s", bad.body()).isEqualTo(400);
        assertThat(new PlainSink(ConnectionSource.sqlite(dir.resolve("current-owner.db"))).read()).as("the bad write changed nothing")
                .isEqualTo(new SinkState(null, 0));
    }

    @Test
    @DisplayName("The server refuses etcd's endpoints without a lock key, before starting anything")
    void refusesEndpointsWithoutALockKey() {
        CommandLine command = new CommandLine(new SinkServerMain());
        command.setErr(new java.io.PrintWriter(java.io.Writer.nullWriter()));

        int exit = command.execute("--dir", dir.resolve("never").toString(), "--etcd-endpoints", "http://127.0.0.1:1");

        assertThat(exit).as("a missing --lock-key is a usage error").isEqualTo(2);
        assertThat(dir.resolve("never")).as("nothing was created").doesNotExist();
    }

    private SinkReply.WriteVerdict write(String mode, String writer, long token, String value) throws Exception {
        HttpResponse<String> response = send("POST", "/sinks/" + mode + "/write",
                "{\"writer\":\"" + writer + "\",\"token\":" + token + ",\"value\":\"" + value + "\"}");
        assertThat(response.statusCode()).as("%s's write to %s: %s", writer, mode, response.body()).isEqualTo(200);
        return reply(response, SinkReply.WriteVerdict.class);
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.uri() + path)).timeout(Duration.ofSeconds(10));
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
