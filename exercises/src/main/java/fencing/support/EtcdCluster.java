package fencing.support;

import io.etcd.jetcd.Client;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real etcd cluster of several members on loopback, started from the etcd binary for a failover experiment.
 *
 * <p>Each member runs under {@link Supervised}, so none outlives the JVM that started it, and its data
 * and log live in a temporary directory of its own that {@link #close()} removes (and its watchdog, if
 * this JVM dies first). A member can be frozen with
 * SIGSTOP, thawed, killed with SIGKILL, stopped with SIGTERM and started again over its own data;
 * {@link #leader()} asks the members which of them leads. The heartbeat is {@link #HEARTBEAT} and the
 * election timeout {@link #ELECTION_TIMEOUT}: short enough for a quick failover, long enough that a
 * busy two-core machine does not call elections on its own.
 */
public final class EtcdCluster implements EtcdEndpoints, AutoCloseable {

    /** How often the leader sends heartbeats. */
    public static final Duration HEARTBEAT = Duration.ofMillis(25);
    /** How long a follower waits without a heartbeat before it calls an election. */
    public static final Duration ELECTION_TIMEOUT = Duration.ofMillis(250);

    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    /** How long a restart waits before trying its member's ports again when another process held one. */
    private static final Duration PORT_PAUSE = Duration.ofMillis(500);

    /** One member as etcd sees it: its name, its raft id (an unsigned number) and the URL clients use. */
    public record Member(String name, long id, String clientUrl) {
    }

    /** What one member says about the cluster: the leader it follows (0 for none) and the raft term. */
    public record Status(long memberId, long leaderId, long term) {
    }

    private final Map<String, Path> dirs;
    private final Map<String, List<String>> commands;
    private final Map<String, Member> members = new LinkedHashMap<>();
    private final MemberRuns runs;

    private EtcdCluster(Path binary, ClusterLayout layout) {
        this.dirs = layout.dirs();
        this.commands = layout.commands();
        this.runs = new MemberRuns(layout, binary);
    }

    /**
     * Starts a cluster of {@code size} members from the etcd binary on {@code PATH}; the caller closes it.
     *
     * @throws IllegalArgumentException if {@code size} is not 1 to 7
     * @throws IllegalStateException    if there is no etcd binary, or the cluster did not become healthy
     */
    public static EtcdCluster start(int size) {
        Path binary = Etcd.findBinary().orElseThrow(() -> new IllegalStateException("a cluster of several members needs the etcd"
                + " binary on PATH (Debian/Ubuntu: sudo apt-get install etcd-server; macOS: brew install etcd); none was found"));
        return start(binary, size);
    }

    /** Starts a cluster of {@code size} members from {@code binary}; the caller closes it. */
    public static EtcdCluster start(Path binary, int size) {
        if (size < 1 || size > 7) {
            throw new IllegalArgumentException("a cluster has 1 to 7 members, got " + size);
        }
        // The ports were free when reserved; another process may take one before a member binds it.
        return EtcdStartUp.retryingTakenPorts(Duration.ZERO, () -> {
            EtcdCluster cluster = prepare(binary, size);
            try {
                cluster.startAll();
                return cluster;
            } catch (RuntimeException e) {
                boolean portTaken = cluster.commands.keySet().stream().anyMatch(name -> cluster.logSince(name, 0).contains(EtcdStartUp.PORT_IN_USE));
                closeAfterFailure(cluster, e);
                if (portTaken) {
                    throw new EtcdStartUp.PortTaken(e.getMessage(), e);
                }
                throw e;
            }
        });
    }

    private static EtcdCluster prepare(Path binary, int size) {
        return new EtcdCluster(binary, ClusterLayout.of(binary, size, HEARTBEAT, ELECTION_TIMEOUT));
    }

    private void startAll() {
        for (String name : commands.keySet()) {
            runs.launch(name);
        }
        for (String name : commands.keySet()) {
            awaitHealthy(name);
            long id = status(name).map(Status::memberId).orElseThrow(() -> new IllegalStateException(
                    name + " is healthy but does not answer its status request"));
            members.put(name, new Member(name, id, clientUrl(name)));
        }
    }

    private void awaitHealthy(String name) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!EtcdStartUp.healthy(clientUrl(name))) {
            if (!runs.current(name).isAlive()) {
                throw new IllegalStateException("etcd " + name + " exited during start-up; its log:\n" + tail(name));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("etcd " + name + " did not become healthy within " + START_TIMEOUT.toSeconds()
                        + " s; its log:\n" + tail(name));
            }
            EtcdStartUp.sleep(Duration.ofMillis(25));
        }
    }

    /** Returns the members in the order they were started. */
    public List<Member> members() {
        return List.copyOf(members.values());
    }

    /** Returns the client URL of the member {@code name}. */
    public String clientUrl(String name) {
        List<String> command = command(name);
        return command.get(command.indexOf("--advertise-client-urls") + 1);
    }

    /** Returns every member's client URL, comma-separated, as {@code --endpoints} takes them. */
    @Override
    public String endpoints() {
        return String.join(",", commands.keySet().stream().map(this::clientUrl).toList());
    }

    /** Builds a jetcd client of every member; the caller closes it. */
    @Override
    public Client newClient() {
        return newClient(new String[0]);
    }

    /** Builds a jetcd client of the members {@code names} only (all of them when none is named); the caller closes it. */
    public Client newClient(String... names) {
        List<String> urls = names.length == 0 ? List.of(endpoints().split(",")) : List.of(names).stream().map(this::clientUrl).toList();
        return Client.builder().endpoints(urls.toArray(String[]::new)).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Returns the pid of the member's current process. */
    public long pid(String name) {
        return runs.current(name).pid();
    }

    /** Returns what the member {@code name} says about leader and term, or nothing if it does not answer within half a second. */
    public Optional<Status> status(String name) {
        return MemberStatus.ask(clientUrl(name));
    }

    /** Returns the leader that a majority of all members agree on now, asking only the members that run and are not frozen. */
    public Optional<Member> leader() {
        Map<Long, Integer> votes = new LinkedHashMap<>();
        // A frozen or ended member cannot answer; asking it would only cost the status call's timeout.
        for (String name : commands.keySet().stream().filter(n -> !runs.frozen(n) && running(n)).toList()) {
            status(name).filter(s -> s.leaderId() != 0).ifPresent(s -> votes.merge(s.leaderId(), 1, Integer::sum));
        }
        return votes.entrySet().stream().filter(e -> e.getValue() > commands.size() / 2).map(e -> byId(e.getKey())).flatMap(Optional::stream)
                .findFirst();
    }

    /**
     * Waits until a majority agrees on a leader other than {@code not} (any leader when {@code null}) and returns it.
     *
     * @throws IllegalStateException if none is agreed on within {@code timeout}
     */
    public Member awaitLeader(String not, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<Member> leader = leader().filter(m -> !m.name().equals(not));
            if (leader.isPresent()) {
                return leader.get();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no member" + (not == null ? "" : " other than " + not) + " was agreed on as leader within "
                        + timeout.toMillis() + " ms");
            }
            EtcdStartUp.sleep(Duration.ofMillis(10));
        }
    }

    /** Freezes the member with SIGSTOP: it keeps its sockets but answers nothing, as a paused machine would. */
    public void freeze(String name) {
        runs.freeze(name, true);
    }

    /** Thaws a frozen member with SIGCONT. */
    public void thaw(String name) {
        runs.freeze(name, false);
    }

    /** Kills the member with SIGKILL, as a crash would, and waits until it is gone; its data stays for {@link #restart}. */
    public void kill(String name) {
        runs.endWith("KILL", name);
    }

    /** Stops the member with SIGTERM and waits until it is gone; its data stays for {@link #restart}. */
    public void stop(String name) {
        runs.endWith("TERM", name);
    }

    /** Starts a killed or stopped member again over its own data, and waits until it is healthy. */
    public void restart(String name) {
        if (runs.current(name).isAlive()) {
            throw new IllegalStateException("etcd " + name + " is still running: kill or stop it before starting it again");
        }
        // The same ports, which the other members know: a port another process took meanwhile is waited for.
        EtcdStartUp.retryingTakenPorts(PORT_PAUSE, () -> {
            long from = logSize(name);
            runs.launch(name);
            try {
                awaitHealthy(name);
            } catch (IllegalStateException e) {
                if (!runs.current(name).isAlive() && logSince(name, from).contains(EtcdStartUp.PORT_IN_USE)) {
                    runs.keepData(name);
                    throw new EtcdStartUp.PortTaken(e.getMessage(), e);
                }
                throw e;
            }
            return name;
        });
    }

    /** Returns whether the member's process runs (frozen or not). */
    public boolean running(String name) {
        return runs.current(name).isAlive();
    }

    /** Returns the directory of the member's data and log; it goes with {@link #close()}. */
    public Path dir(String name) {
        command(name);
        return dirs.get(name);
    }

    /** Thaws, stops and removes every member with its data. */
    @Override
    public void close() {
        RuntimeException failure = runs.closeAll();
        dirs.values().forEach(FileTrees::delete);
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "etcd cluster of " + commands.size() + " members (" + endpoints() + ")";
    }

    private List<String> command(String name) {
        List<String> command = commands.get(name);
        if (command == null) {
            throw new IllegalArgumentException("no member named '" + name + "': the members are " + commands.keySet());
        }
        return command;
    }

    private Optional<Member> byId(long id) {
        return members.values().stream().filter(m -> m.id() == id).findFirst();
    }

    private String tail(String name) {
        List<String> lines = logSince(name, 0).lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }

    /** Returns what the member's log holds from byte {@code offset} on: every run of the member appends to it. */
    private String logSince(String name, long offset) {
        Path log = dirs.get(name).resolve("etcd.log");
        try (InputStream in = Files.newInputStream(log)) {
            in.skipNBytes(Math.min(offset, Files.size(log)));
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private long logSize(String name) {
        try {
            return Files.size(dirs.get(name).resolve("etcd.log"));
        } catch (IOException none) {
            return 0;
        }
    }

    private static void closeAfterFailure(EtcdCluster cluster, RuntimeException failure) {
        try {
            cluster.close();
        } catch (RuntimeException cleanup) {
            failure.addSuppressed(cleanup);
        }
    }
}
