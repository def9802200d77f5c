package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.cluster.Member;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's own checks of {@link Etcd}: the binary path, the environment variables, and the clean-up.
 *
 * <p>Everything here runs a real etcd; the environment cases run in child JVMs with their own environment.
 */
@Tag("etcd")
@Timeout(value = 60)
class EtcdProvisioningTests {

    private static final Duration CHILD_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration GONE_WITHIN = Duration.ofSeconds(10);

    private static Path binary;

    @TempDir
    Path temp;

    @BeforeAll
    static void findEtcdBinary() {
        Optional<Path> found = Etcd.findBinary();
        assertThat(found)
                .as("the binary path needs an etcd binary on PATH (%s); install etcd-server (Debian) or etcd (brew)",
                        System.getenv("PATH"))
                .isPresent();
        binary = found.get();
    }

    @Test
    @DisplayName("the binary path starts a healthy single-member etcd that listens on loopback only")
    void binaryPathStartsHealthyEtcdOnLoopback() throws Exception {
        long started = System.nanoTime();
        try (Etcd etcd = Etcd.startBinary(binary); Client client = etcd.newClient()) {
            long startupMillis = elapsedMillis(started);
            System.out.printf("binary path: etcd healthy %d ms after start (%s)%n", startupMillis, etcd.origin());

            assertThat(etcd.endpoints())
                    .as("the kit talks to its etcd on loopback only, got endpoints %s", etcd.endpoints())
                    .matches("http://127\\.0\\.0\\.1:[0-9]+");
            assertThat(EtcdStartUp.healthy(etcd.endpoints()))
                    .as("etcd at %s must answer /health with health=true", etcd.endpoints())
                    .isTrue();
            List<Member> members = client.getClusterClient().listMember().get(5, TimeUnit.SECONDS).getMembers();
            assertThat(members).as("a single-member cluster, got %s", members).hasSize(1);
            assertThat(members.get(0).getClientURIs()).as("client URLs must be on 127.0.0.1 only")
                    .extracting(URI::getHost).containsOnly("127.0.0.1");
            assertThat(members.get(0).getPeerURIs()).as("peer URLs must be on 127.0.0.1 only")
                    .extracting(URI::getHost).containsOnly("127.0.0.1");

            ByteSequence key = bytes(Etcd.uniqueKey("provisioning"));
            client.getKVClient().put(key, bytes("round trip")).get(5, TimeUnit.SECONDS);
            List<String> read = client.getKVClient().get(key).get(5, TimeUnit.SECONDS).getKvs().stream()
                    .map(kv -> kv.getValue().toString(StandardCharsets.UTF_8)).toList();
            assertThat(read).as("a value put into the started etcd must read back").containsExactly("round trip");
        }
    }

    @Test
    @DisplayName("a start on a port another listener holds is tried again on other ports and succeeds; alone it fails with etcd's reason")
    void aStartOnAHeldPortIsTriedAgain() {
        int held = LoopbackPorts.reserve();
        try (PortHolder holder = PortHolder.hold(held)) {
            assertThatThrownBy(() -> Etcd.startBinaryOn(binary, held, LoopbackPorts.reserve()))
                    .as("the wrong case: one start on port %d, which another listener holds", held)
                    .isInstanceOf(EtcdStartUp.PortTaken.class).hasMessageContaining(EtcdStartUp.PORT_IN_USE);

            AtomicInteger starts = new AtomicInteger();
            try (Etcd etcd = EtcdStartUp.retryingTakenPorts(Duration.ZERO,
                    () -> Etcd.startBinaryOn(binary, starts.incrementAndGet() == 1 ? held : LoopbackPorts.reserve(), LoopbackPorts.reserve()))) {
                assertThat(starts.get()).as("starts, the first on the held port %d", held).isEqualTo(2);
                assertThat(EtcdStartUp.healthy(etcd.endpoints())).as("the second start's etcd at %s answers healthy", etcd.endpoints()).isTrue();
            }
        }
    }

    @Test
    @DisplayName("the binary path's etcd listens on 127.0.0.1 only, as the kernel's socket table shows")
    void binaryPathListensOnLoopbackOnly() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")),
                "Skipped: reads the kernel's socket table in /proc/net, which only Linux has");
        try (Etcd etcd = Etcd.startBinary(binary); Client client = etcd.newClient()) {
            Member member = client.getClusterClient().listMember().get(5, TimeUnit.SECONDS).getMembers().get(0);
            List<Integer> ports = List.of(member.getClientURIs().get(0).getPort(), member.getPeerURIs().get(0).getPort());
            List<String> listeners = listeningAddresses(ports);

            assertThat(listeners)
                    .as("etcd's client and peer ports %s must be listened on, and on 127.0.0.1 only (no traffic"
                            + " but loopback); listening sockets found: %s", ports, listeners)
                    .isNotEmpty()
                    .allMatch(address -> address.startsWith("127.0.0.1:"));
        }
    }

    @Test
    @DisplayName("a 1 s lease on the binary path is granted as 1 s, is alive right after the grant, and expires within seconds")
    void oneSecondLeaseReallyExpiresInAboutOneSecond() throws Exception {
        try (Etcd etcd = Etcd.startBinary(binary); Client client = etcd.newClient()) {
            ByteSequence key = bytes(Etcd.uniqueKey("lease"));
            ClientWarmUp.warmUp(client);
            // The clock starts when etcd has answered the grant: that is when the lease's second begins.
            LeaseGrantResponse grant = client.getLeaseClient().grant(1).get(5, TimeUnit.SECONDS);
            long granted = System.nanoTime();
            client.getKVClient().put(key, bytes("held"), PutOption.builder().withLeaseId(grant.getID()).build())
                    .get(5, TimeUnit.SECONDS);
            long aliveTtl = client.getLeaseClient().timeToLive(grant.getID(), LeaseOption.DEFAULT).get(5, TimeUnit.SECONDS).getTTL();
            long keysRightAfterGrant = count(client, key);

            long expiredAfter = -1;
            long deadline = granted + GONE_WITHIN.toNanos();
            while (System.nanoTime() < deadline) {
                if (count(client, key) == 0) {
                    expiredAfter = elapsedMillis(granted);
                    break;
                }
                Thread.sleep(20);
            }
            System.out.printf("binary path: 1 s lease gone %d ms after the grant's reply%n", expiredAfter);

            assertThat(grant.getTTL())
                    .as("etcd must grant a 1 s lease as 1 s (the fast heartbeat lowers its minimum TTL), granted %d s", grant.getTTL())
                    .isEqualTo(1);
            assertThat(aliveTtl)
                    .as("right after the grant the lease must still be alive (TTL -1 means expired), got TTL %d", aliveTtl)
                    .isGreaterThanOrEqualTo(0);
            assertThat(keysRightAfterGrant)
                    .as("right after the grant the key attached to the lease must exist")
                    .isEqualTo(1);
            assertThat(expiredAfter)
                    .as("a 1 s lease nobody keeps alive must expire and take its key with it within %d s", GONE_WITHIN.toSeconds())
                    .isPositive();
            assertThat(client.getLeaseClient().timeToLive(grant.getID(), LeaseOption.DEFAULT).get(5, TimeUnit.SECONDS).getTTL())
                    .as("after expiry etcd must report the lease as gone (TTL -1)")
                    .isEqualTo(-1);
        }
    }

    @Test
    @DisplayName("close() stops the etcd process and its watchdog and deletes its data directory")
    void closeStopsProcessAndDeletesDataDir() {
        Etcd etcd = Etcd.startBinary(binary);
        long pid = etcd.pid().orElseThrow();
        Path workDir = etcd.workDir().orElseThrow();
        boolean aliveBefore = ProcessLiveness.running(pid);
        boolean dataBefore = Files.isDirectory(workDir.resolve("data"));

        etcd.close();

        assertThat(aliveBefore).as("etcd (pid %d) must run before close()", pid).isTrue();
        assertThat(dataBefore).as("etcd's data directory %s must exist before close()", workDir).isTrue();
        assertThat(ProcessLiveness.running(pid)).as("after close() etcd (pid %d) must be gone", pid).isFalse();
        assertThat(workDir).as("after close() the data directory must be deleted").doesNotExist();
        assertThat(ProcessHandle.current().descendants().filter(ProcessLiveness::running)
                .map(p -> p.info().commandLine().orElse("")).filter(line -> line.contains(workDir.toString())))
                .as("after close() no process of this JVM may still refer to %s (the watchdog must be gone too)", workDir)
                .isEmpty();
    }

    @Test
    @DisplayName("a JVM killed with SIGKILL does not leave its etcd behind: the watchdog stops it and deletes its data")
    void sigkilledJvmLeavesNoEtcdBehind() throws Exception {
        long etcdPid;
        Path workDir;
        long killedAt;
        try (EtcdProbeJvm child = EtcdProbeJvm.start(env(Map.of("KIT_ETCD", "binary")), temp, "hold")) {
            Optional<EtcdProbeMessage.Provided> provided = child.await(EtcdProbeMessage.Provided.class, CHILD_TIMEOUT);
            assertThat(provided.map(EtcdProbeMessage.Provided::pid))
                    .as("the child JVM must start etcd on the binary path and say its pid; %s", child).isPresent();
            assertThat(child.await(EtcdProbeMessage.Holding.class, CHILD_TIMEOUT)).as("the child must hold its etcd; %s", child).isPresent();
            etcdPid = provided.get().pid();
            workDir = Path.of(provided.get().workDir());
            assertThat(ProcessLiveness.running(etcdPid)).as("the child's etcd (pid %d) must run before the kill", etcdPid).isTrue();

            child.kill();
            killedAt = System.nanoTime();
        }

        long deadline = killedAt + GONE_WITHIN.toNanos();
        while ((ProcessLiveness.running(etcdPid) || Files.exists(workDir)) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        System.out.printf("watchdog: etcd of a SIGKILLed JVM gone %d ms after the kill%n", elapsedMillis(killedAt));

        assertThat(ProcessLiveness.running(etcdPid))
                .as("etcd (pid %d) must not outlive its SIGKILLed JVM by more than %d s", etcdPid, GONE_WITHIN.toSeconds())
                .isFalse();
        assertThat(workDir).as("the data directory of a SIGKILLed JVM's etcd must be deleted").doesNotExist();
    }

    @Test
    @DisplayName("ETCD_ENDPOINTS is used as it is: nothing is started and the writes land in that etcd")
    void etcdEndpointsIsUsedAsIs() throws Exception {
        String key = Etcd.uniqueKey("endpoints");
        try (Etcd existing = Etcd.startBinary(binary); Client client = existing.newClient()) {
            Map<String, String> env = env(Map.of(
                    "ETCD_ENDPOINTS", existing.endpoints(),
                    // Nothing else to fall back on: a child that ignored ETCD_ENDPOINTS would fail.
                    "PATH", emptyDir().toString(),
                    "DOCKER_HOST", "unix://" + closedSocket()));
            try (EtcdProbeJvm child = EtcdProbeJvm.start(env, temp, "put", key, "from the child")) {
                Optional<Integer> exit = child.awaitExit(CHILD_TIMEOUT);
                Optional<EtcdProbeMessage.Provided> provided = child.provided();

                assertThat(exit).as("the child using ETCD_ENDPOINTS must succeed; %s", child).contains(0);
                assertThat(provided.map(EtcdProbeMessage.Provided::endpoints))
                        .as("ETCD_ENDPOINTS=%s must be used as it is; %s", existing.endpoints(), child)
                        .contains(existing.endpoints());
                assertThat(provided.map(EtcdProbeMessage.Provided::pid)).as("with ETCD_ENDPOINTS no etcd may be started; %s", child)
                        .isEmpty();
                assertThat(child.await(EtcdProbeMessage.Done.class, Duration.ofSeconds(5))).as("the child says it wrote; %s", child)
                        .isPresent();
                List<String> read = client.getKVClient().get(bytes(key)).get(5, TimeUnit.SECONDS).getKvs().stream()
                        .map(kv -> kv.getValue().toString(StandardCharsets.UTF_8)).toList();
                assertThat(read).as("the child's write must land in the etcd named by ETCD_ENDPOINTS")
                        .containsExactly("from the child");
            }
        }
    }

    @Test
    @DisplayName("a bad KIT_ETCD value is refused with a message naming the allowed values")
    void badKitEtcdValueGivesClearError() throws Exception {
        try (EtcdProbeJvm child = EtcdProbeJvm.start(env(Map.of("KIT_ETCD", "bianry")), temp, "hold")) {
            Optional<Integer> exit = child.awaitExit(CHILD_TIMEOUT);

            assertThat(exit).as("KIT_ETCD=bianry must end the child with an error; %s", child)
                    .hasValueSatisfying(code -> assertThat(code).isNotZero());
            assertThat(child.provided()).as("a bad KIT_ETCD must start nothing; %s", child).isEmpty();
            assertThat(child.output())
                    .as("the error must name KIT_ETCD, the allowed values and the bad value")
                    .contains("KIT_ETCD must be 'binary' or 'container'")
                    .contains("'bianry'");
        }
    }

    @Test
    @DisplayName("without ETCD_ENDPOINTS, an etcd binary or Docker, the failure says how to get etcd")
    void noEtcdAnywhereNamesTheWaysToGetOne() throws Exception {
        Map<String, String> env = env(Map.of(
                "PATH", emptyDir().toString(),
                "DOCKER_HOST", "unix://" + closedSocket()));
        try (EtcdProbeJvm child = EtcdProbeJvm.start(env, temp, "hold")) {
            Optional<Integer> exit = child.awaitExit(CHILD_TIMEOUT);

            assertThat(exit).as("with no etcd to be had the child must fail; %s", child)
                    .hasValueSatisfying(code -> assertThat(code).isNotZero());
            assertThat(child.provided()).as("with no etcd to be had nothing is started; %s", child).isEmpty();
            assertThat(child.output())
                    .as("the failure must say how to get etcd on Debian/Ubuntu, on macOS and with Docker")
                    .contains("apt-get install etcd-server")
                    .contains("brew install etcd")
                    .contains("Docker")
                    .contains("does not answer");
        }
    }

    /**
     * Returns the local addresses of the listening TCP sockets on {@code ports}, as "a.b.c.d:port" or "[ipv6]:port".
     *
     * <p>Rows of {@code /proc/net/tcp{,6}}: the local address is hex (IPv4 in little-endian byte order), state 0A is LISTEN.
     */
    private static List<String> listeningAddresses(List<Integer> ports) throws IOException {
        List<String> found = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path file = Path.of(table);
            if (!Files.isReadable(file)) {
                continue;
            }
            List<String> rows = Files.readAllLines(file);
            for (String row : rows.subList(1, rows.size())) {
                String[] columns = row.trim().split("\\s+");
                String[] local = columns[1].split(":");
                int port = Integer.parseInt(local[1], 16);
                if (!columns[3].equals("0A") || !ports.contains(port)) {
                    continue;
                }
                found.add(hexAddress(local[0]) + ":" + port);
            }
        }
        return found;
    }

    private static String hexAddress(String hex) {
        if (hex.length() == 8) {
            long value = Long.parseLong(hex, 16);
            return (value & 0xff) + "." + (value >> 8 & 0xff) + "." + (value >> 16 & 0xff) + "." + (value >> 24 & 0xff);
        }
        // IPv6: four 32-bit words, each in little-endian byte order; an IPv4-mapped loopback is still loopback.
        StringBuilder address = new StringBuilder();
        for (int word = 0; word < 4; word++) {
            String w = hex.substring(word * 8, word * 8 + 8);
            address.append(w, 6, 8).append(w, 4, 6).append(w, 2, 4).append(w, 0, 2);
        }
        String full = address.toString().toLowerCase(Locale.ROOT);
        if (full.startsWith("00000000000000000000ffff")) {
            return hexAddress(hex.substring(24));
        }
        return "[" + full + "]";
    }

    /** This JVM's environment for a child, without the variables that choose an etcd, changed by {@code changes}. */
    private static Map<String, String> env(Map<String, String> changes) {
        Map<String, String> env = new HashMap<>();
        env.put("ETCD_ENDPOINTS", null);
        env.put("KIT_ETCD", null);
        env.putAll(changes);
        return env;
    }

    private Path emptyDir() throws IOException {
        return Files.createTempDirectory(temp, "empty-path-");
    }

    /** A unix socket file nobody listens on: it was bound and closed. */
    private Path closedSocket() throws IOException {
        Path socket = temp.resolve("closed-docker.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
        }
        return socket;
    }

    private static long count(Client client, ByteSequence key) throws Exception {
        return client.getKVClient().get(key).get(5, TimeUnit.SECONDS).getCount();
    }

    private static long elapsedMillis(long since) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }
}
