package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The kit's own checks of {@link EtcdCluster}: a real three-member cluster, its leader, its faults and its clean-up. */
@Tag("etcd")
@Timeout(120)
class EtcdClusterTests {

    private static final Duration ELECTION_WITHIN = Duration.ofSeconds(10);

    @Test
    @DisplayName("three members start on loopback, agree on one leader and replicate a write to every member")
    void threeMembersAgreeOnOneLeaderAndReplicate() throws Exception {
        try (EtcdCluster cluster = EtcdCluster.start(3)) {
            EtcdCluster.Member leader = cluster.awaitLeader(null, ELECTION_WITHIN);
            ByteSequence key = ByteSequence.from(Etcd.uniqueKey("cluster"), StandardCharsets.UTF_8);
            try (Client toLeader = cluster.newClient(leader.name())) {
                toLeader.getKVClient().put(key, ByteSequence.from("v", StandardCharsets.UTF_8)).get(5, TimeUnit.SECONDS);
            }

            assertThat(cluster.members()).as("three members").hasSize(3);
            assertThat(cluster.members()).extracting(EtcdCluster.Member::clientUrl).as("every member listens on loopback")
                    .allMatch(url -> url.matches("http://127\\.0\\.0\\.1:[0-9]+"));
            assertThat(cluster.members()).extracting(EtcdCluster.Member::id).as("each member has its own raft id").doesNotHaveDuplicates();
            for (EtcdCluster.Member member : cluster.members()) {
                assertThat(cluster.status(member.name())).as("%s follows the agreed leader %s", member.name(), leader.name())
                        .hasValueSatisfying(s -> assertThat(s.leaderId()).isEqualTo(leader.id()));
                try (Client one = cluster.newClient(member.name())) {
                    assertThat(Etcd.await(one.getKVClient().get(key)).getCount()).as("%s serves the write made through the leader", member.name())
                            .isEqualTo(1);
                }
            }
        }
    }

    @Test
    @DisplayName("freezing the leader elects another in a higher term, and the thawed member rejoins as a follower")
    void freezingTheLeaderElectsAnother() {
        try (EtcdCluster cluster = EtcdCluster.start(3)) {
            EtcdCluster.Member old = cluster.awaitLeader(null, ELECTION_WITHIN);
            long termBefore = cluster.status(old.name()).orElseThrow().term();

            cluster.freeze(old.name());
            long frozenAt = System.nanoTime();
            EtcdCluster.Member elected = cluster.awaitLeader(old.name(), ELECTION_WITHIN);
            System.out.printf("cluster: new leader %s %d ms after freezing %s%n", elected.name(), (System.nanoTime() - frozenAt) / 1_000_000, old.name());
            EtcdCluster.Member survivor = cluster.members().stream().filter(m -> !m.name().equals(old.name())).findFirst().orElseThrow();

            assertThat(elected.name()).as("a frozen leader cannot stay leader").isNotEqualTo(old.name());
            assertThat(cluster.status(survivor.name()).orElseThrow().term()).as("the election moved to a higher term than %d", termBefore)
                    .isGreaterThan(termBefore);
            assertThat(cluster.status(old.name())).as("a frozen member answers nothing").isEmpty();

            cluster.thaw(old.name());
            assertThat(cluster.awaitLeader(null, ELECTION_WITHIN).name()).as("one leader again after the thaw").isNotBlank();
            long deadline = System.nanoTime() + ELECTION_WITHIN.toNanos();
            while (cluster.status(old.name()).map(s -> s.leaderId() == old.id()).orElse(true) && System.nanoTime() < deadline) {
                EtcdStartUp.sleep(Duration.ofMillis(20));
            }
            assertThat(cluster.status(old.name())).as("the thawed member answers again and follows the new leader")
                    .hasValueSatisfying(s -> assertThat(s.leaderId()).isNotEqualTo(old.id()).isNotZero());
        }
    }

    @Test
    @DisplayName("a killed member keeps its data and rejoins when started again; without it the other two still have quorum")
    void killedMemberRestartsOverItsData() throws Exception {
        try (EtcdCluster cluster = EtcdCluster.start(3)) {
            EtcdCluster.Member leader = cluster.awaitLeader(null, ELECTION_WITHIN);
            long pid = cluster.pid(leader.name());

            cluster.kill(leader.name());
            EtcdCluster.Member elected = cluster.awaitLeader(leader.name(), ELECTION_WITHIN);
            ByteSequence key = ByteSequence.from(Etcd.uniqueKey("quorum"), StandardCharsets.UTF_8);
            try (Client survivors = cluster.newClient(elected.name())) {
                Etcd.await(survivors.getKVClient().put(key, ByteSequence.from("v", StandardCharsets.UTF_8)));
            }

            assertThat(cluster.running(leader.name())).as("the killed member is gone").isFalse();
            assertThat(ProcessLiveness.running(pid)).as("its process %d is gone", pid).isFalse();
            assertThat(cluster.dir(leader.name()).resolve("data")).as("its data stays for a restart").isDirectory();

            cluster.restart(leader.name());
            try (Client back = cluster.newClient(leader.name())) {
                assertThat(Etcd.await(back.getKVClient().get(key)).getCount())
                        .as("the restarted member catches up with the write made while it was down").isEqualTo(1);
            }
        }
    }

    @Test
    @DisplayName("a member started again while another listener holds its port waits for the port; if it is never let go, the restart says why")
    void aRestartWaitsForItsHeldPort() throws Exception {
        try (EtcdCluster cluster = EtcdCluster.start(3)) {
            String name = "member-2";
            cluster.stop(name);
            int port = URI.create(cluster.clientUrl(name)).getPort();
            try (PortHolder keeps = PortHolder.hold(port)) {
                assertThatThrownBy(() -> cluster.restart(name)).as("the wrong case: a restart while another listener keeps port %d", port)
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining(EtcdStartUp.PORT_IN_USE)
                        .hasMessageContaining(EtcdStartUp.START_ATTEMPTS + " starts");
            }
            Path log = cluster.dir(name).resolve("etcd.log");
            long before = Files.size(log);

            try (PortHolder letsGo = PortHolder.holdUntilRefused(port, () -> since(log, before))) {
                cluster.restart(name);
                assertThat(letsGo.clashed()).as("the restart first met port %d held", port).isTrue();
            }

            assertThat(cluster.running(name)).as("%s runs again", name).isTrue();
            assertThat(EtcdStartUp.healthy(cluster.clientUrl(name))).as("%s answers healthy on its own URL %s", name, cluster.clientUrl(name))
                    .isTrue();
        }
    }

    @Test
    @DisplayName("the members of many clusters laid out at once never share a port, so no initial cluster has a duplicate URL")
    void layoutsNeverShareAPort() {
        List<ClusterLayout> layouts = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                layouts.add(ClusterLayout.of(Path.of("etcd"), 7, EtcdCluster.HEARTBEAT, EtcdCluster.ELECTION_TIMEOUT));
            }
            List<String> urls = layouts.stream().flatMap(layout -> layout.commands().values().stream())
                    .flatMap(command -> Stream.of(command.get(command.indexOf("--listen-client-urls") + 1),
                            command.get(command.indexOf("--listen-peer-urls") + 1)))
                    .toList();
            // Bare probes of port 0 repeat a port among this many (LoopbackPortsTests shows it); the layouts must not.
            assertThat(urls).as("the client and peer URLs of 50 layouts of 7 members").hasSize(700).doesNotHaveDuplicates();
        } finally {
            layouts.forEach(layout -> layout.dirs().values().forEach(FileTrees::delete));
        }
    }

    @Test
    @DisplayName("close stops every member, frozen ones included, and removes their directories")
    void closeStopsEveryMemberAndRemovesItsData() {
        List<Long> pids = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        EtcdCluster cluster = EtcdCluster.start(3);
        try {
            for (EtcdCluster.Member member : cluster.members()) {
                pids.add(cluster.pid(member.name()));
                dirs.add(cluster.dir(member.name()));
            }
            cluster.freeze(cluster.members().get(0).name());
        } finally {
            cluster.close();
        }

        assertThat(pids).as("no member outlives close(), the frozen one included").noneMatch(EtcdClusterTests::alive);
        assertThat(dirs).as("every member's directory is removed").noneMatch(Files::exists);
    }

    @Test
    @DisplayName("a JVM killed with SIGKILL leaves no member and no member directory behind, a killed member's kept data included")
    void sigkilledJvmLeavesNothingBehind(@TempDir Path temp) throws Exception {
        Path log = temp.resolve("probe.log");
        List<Long> pids = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        try (Supervised probe = ChildJvm.of(ClusterProbe.class).log(log).start("cluster probe")) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            String line = null;
            boolean killed = false;
            while ((line == null || !killed) && System.nanoTime() < deadline) {
                List<String> said = Files.exists(log) ? Files.readAllLines(log) : List.of();
                line = said.stream().filter(l -> l.startsWith("CLUSTER ")).findFirst().orElse(null);
                killed = said.stream().anyMatch(l -> l.startsWith("KILLED "));
                assertThat(probe.isAlive() || line != null).as("the probe runs; its log:%n%s", Files.exists(log) ? Files.readString(log) : "").isTrue();
                EtcdStartUp.sleep(Duration.ofMillis(50));
            }
            assertThat(line).as("the probe started its cluster within 60 s").isNotNull();
            assertThat(killed).as("the probe killed one member within 60 s").isTrue();
            for (String part : line.substring("CLUSTER ".length()).split(" ")) {
                pids.add(Long.parseLong(part.substring(0, part.indexOf('='))));
                dirs.add(Path.of(part.substring(part.indexOf('=') + 1)));
            }
            ProcessHandle.of(probe.pid()).ifPresent(ProcessHandle::destroyForcibly);
            deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while ((pids.stream().anyMatch(EtcdClusterTests::alive) || dirs.stream().anyMatch(Files::exists)) && System.nanoTime() < deadline) {
                EtcdStartUp.sleep(Duration.ofMillis(50));
            }
        }

        assertThat(pids).as("no member may outlive the SIGKILLed JVM that started it").noneMatch(EtcdClusterTests::alive);
        assertThat(dirs).as("the watchdogs remove every member's directory").noneMatch(Files::exists);
    }

    /** Returns what {@code log} holds from byte {@code offset} on. */
    private static String since(Path log, long offset) {
        try {
            byte[] bytes = Files.readAllBytes(log);
            return new String(bytes, (int) Math.min(offset, bytes.length), (int) Math.max(0, bytes.length - offset), StandardCharsets.UTF_8);
        } catch (IOException notYet) {
            // Polled until the start has written it.
            return "";
        }
    }

    @Test
    @DisplayName("a size outside 1 to 7 and an unknown member name are refused with what is allowed")
    void refusesBadSizeAndUnknownMember() {
        assertThatThrownBy(() -> EtcdCluster.start(0)).as("a cluster of no member").isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 7");
        try (EtcdCluster cluster = EtcdCluster.start(1)) {
            assertThatThrownBy(() -> cluster.freeze("member-9")).as("freezing a member that does not exist")
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("member-1");
        }
    }

    private static boolean alive(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            char state = stat.substring(stat.lastIndexOf(')') + 2).charAt(0);
            return state != 'Z' && state != 'X';
        } catch (java.io.IOException gone) {
            return false;
        }
    }
}
