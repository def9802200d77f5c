package fencing.support;

import io.etcd.jetcd.Client;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
public final class EtcdCluster implements AutoCloseable {

    /** How often the leader sends heartbeats. */
    public static final Duration HEARTBEAT = Duration.ofMillis(25);
    /** How long a follower waits without a heartbeat before it calls an election. */
    public static final Duration ELECTION_TIMEOUT = Duration.ofMillis(250);

    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final int START_ATTEMPTS = 3;
    private static final Pattern MEMBER_ID = Pattern.compile("\"member_id\"\\s*:\\s*\"?(\\d+)");
    private static final Pattern LEADER = Pattern.compile("\"leader\"\\s*:\\s*\"?(\\d+)");
    private static final Pattern TERM = Pattern.compile("\"raftTerm\"\\s*:\\s*\"?(\\d+)");

    /** One member as etcd sees it: its name, its raft id (an unsigned number) and the URL clients use. */
    public record Member(String name, long id, String clientUrl) {
    }

    /** What one member says about the cluster: the leader it follows (0 for none) and the raft term. */
    public record Status(long memberId, long leaderId, long term) {
    }

    private final Path binary;
    private final Map<String, Path> dirs;
    private final Map<String, List<String>> commands;
    private final Map<String, List<Supervised>> runs = new LinkedHashMap<>();
    private final Map<String, Member> members = new LinkedHashMap<>();
    private final Map<String, Boolean> frozen = new LinkedHashMap<>();
    private final Map<String, Supervised> keepers = new LinkedHashMap<>();

    private EtcdCluster(Path binary, Map<String, Path> dirs, Map<String, List<String>> commands) {
        this.binary = binary;
        this.dirs = dirs;
        this.commands = commands;
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
        for (int attempt = 1; ; attempt++) {
            EtcdCluster cluster = prepare(binary, size);
            try {
                cluster.startAll();
                return cluster;
            } catch (RuntimeException e) {
                boolean portTaken = cluster.logsSay("address already in use");
                closeAfterFailure(cluster, e);
                // The ports were free when chosen; another process took one before etcd bound it.
                if (!portTaken || attempt == START_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    private static EtcdCluster prepare(Path binary, int size) {
        // A directory per member and none shared: each member's watchdog removes its own if this JVM dies.
        Map<String, Path> dirs = new LinkedHashMap<>();
        for (int i = 1; i <= size; i++) {
            try {
                dirs.put("member-" + i, Files.createTempDirectory("fencing-etcd-member-" + i + "-"));
            } catch (IOException e) {
                dirs.values().forEach(FileTrees::delete);
                throw new UncheckedIOException("could not create a directory for etcd member-" + i, e);
            }
        }
        List<String> names = new ArrayList<>();
        List<Integer> clientPorts = new ArrayList<>();
        List<String> peers = new ArrayList<>();
        for (int i = 1; i <= size; i++) {
            names.add("member-" + i);
            clientPorts.add(Etcd.freePort());
            peers.add("member-" + i + "=http://127.0.0.1:" + Etcd.freePort());
        }
        Map<String, List<String>> commands = new LinkedHashMap<>();
        String token = "fencing-" + java.util.UUID.randomUUID();
        for (int i = 0; i < size; i++) {
            String client = "http://127.0.0.1:" + clientPorts.get(i);
            String peer = peers.get(i).substring(peers.get(i).indexOf('=') + 1);
            commands.put(names.get(i), List.of(binary.toString(),
                    "--name", names.get(i),
                    "--data-dir", dirs.get(names.get(i)).resolve("data").toString(),
                    "--listen-client-urls", client, "--advertise-client-urls", client,
                    "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                    "--initial-cluster", String.join(",", peers),
                    "--initial-cluster-token", token,
                    "--initial-cluster-state", "new",
                    "--heartbeat-interval", Long.toString(HEARTBEAT.toMillis()),
                    "--election-timeout", Long.toString(ELECTION_TIMEOUT.toMillis()),
                    "--logger", "zap", "--log-level", "info"));
        }
        return new EtcdCluster(binary, dirs, commands);
    }

    private void startAll() {
        for (String name : commands.keySet()) {
            launch(name);
        }
        for (String name : commands.keySet()) {
            awaitHealthy(name);
            long id = status(name).map(Status::memberId).orElseThrow(() -> new IllegalStateException(
                    name + " is healthy but does not answer its status request"));
            members.put(name, new Member(name, id, clientUrl(name)));
        }
    }

    private void launch(String name) {
        Path dir = dirs.get(name);
        try {
            runs.computeIfAbsent(name, n -> new ArrayList<>()).add(Supervised.start("etcd " + name, commands.get(name),
                    dir.resolve("etcd.log").toFile(), dir));
        } catch (IOException e) {
            throw new UncheckedIOException("could not start etcd " + name + " from " + binary, e);
        }
        frozen.put(name, false);
    }

    private void awaitHealthy(String name) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!Etcd.healthy(clientUrl(name))) {
            if (!current(name).isAlive()) {
                throw new IllegalStateException("etcd " + name + " exited during start-up; its log:\n" + tail(name));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("etcd " + name + " did not become healthy within " + START_TIMEOUT.toSeconds()
                        + " s; its log:\n" + tail(name));
            }
            Etcd.sleep(Duration.ofMillis(25));
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
    public String endpoints() {
        return String.join(",", commands.keySet().stream().map(this::clientUrl).toList());
    }

    /** Builds a jetcd client of the members {@code names} only (all of them when none is named); the caller closes it. */
    public Client newClient(String... names) {
        List<String> urls = names.length == 0 ? List.of(endpoints().split(",")) : List.of(names).stream().map(this::clientUrl).toList();
        return Client.builder().endpoints(urls.toArray(String[]::new)).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Returns the pid of the member's current process. */
    public long pid(String name) {
        return current(name).pid();
    }

    /** Returns what the member {@code name} says about leader and term, or nothing if it does not answer within half a second. */
    public Optional<Status> status(String name) {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(clientUrl(name) + "/v3/maintenance/status").toURL().openConnection();
            connection.setConnectTimeout(500);
            connection.setReadTimeout(500);
            connection.setRequestMethod("POST");
            connection.setDoOutput(true);
            connection.getOutputStream().write("{}".getBytes(StandardCharsets.UTF_8));
            try {
                if (connection.getResponseCode() != 200) {
                    return Optional.empty();
                }
                String body = new String(connection.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                OptionalLong member = number(MEMBER_ID, body);
                if (member.isEmpty()) {
                    return Optional.empty();
                }
                return Optional.of(new Status(member.getAsLong(), number(LEADER, body).orElse(0), number(TERM, body).orElse(0)));
            } finally {
                connection.disconnect();
            }
        } catch (IOException noAnswer) {
            return Optional.empty();
        }
    }

    /** Returns the leader that a majority of all members agree on now, asking only the members that run and are not frozen. */
    public Optional<Member> leader() {
        Map<Long, Integer> votes = new LinkedHashMap<>();
        // A frozen or ended member cannot answer; asking it would only cost the status call's timeout.
        for (String name : commands.keySet().stream().filter(n -> !Boolean.TRUE.equals(frozen.get(n)) && running(n)).toList()) {
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
            Etcd.sleep(Duration.ofMillis(10));
        }
    }

    /** Freezes the member with SIGSTOP: it keeps its sockets but answers nothing, as a paused machine would. */
    public void freeze(String name) {
        signal("STOP", name);
        frozen.put(name, true);
    }

    /** Thaws a frozen member with SIGCONT. */
    public void thaw(String name) {
        signal("CONT", name);
        frozen.put(name, false);
    }

    /** Kills the member with SIGKILL, as a crash would, and waits until it is gone; its data stays for {@link #restart}. */
    public void kill(String name) {
        endWith("KILL", name);
    }

    /** Stops the member with SIGTERM and waits until it is gone; its data stays for {@link #restart}. */
    public void stop(String name) {
        endWith("TERM", name);
    }

    /** Starts a killed or stopped member again over its own data, and waits until it is healthy. */
    public void restart(String name) {
        if (current(name).isAlive()) {
            throw new IllegalStateException("etcd " + name + " is still running: kill or stop it before starting it again");
        }
        Supervised keeper = keepers.remove(name);
        if (keeper != null) {
            keeper.closeKeepingWorkDir();
        }
        launch(name);
        awaitHealthy(name);
    }

    /** Returns whether the member's process runs (frozen or not). */
    public boolean running(String name) {
        return current(name).isAlive();
    }

    /** Returns the directory of the member's data and log; it goes with {@link #close()}. */
    public Path dir(String name) {
        command(name);
        return dirs.get(name);
    }

    /** Thaws, stops and removes every member with its data. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (String name : runs.keySet()) {
            if (Boolean.TRUE.equals(frozen.get(name)) && current(name).isAlive()) {
                try {
                    thaw(name);
                } catch (RuntimeException e) {
                    failure = failure == null ? e : failure;
                }
            }
            // The newest run first: closing an older one removes the member's directory.
            List<Supervised> memberRuns = runs.get(name);
            for (int i = memberRuns.size() - 1; i >= 0; i--) {
                try {
                    memberRuns.get(i).close();
                } catch (RuntimeException e) {
                    failure = failure == null ? e : failure;
                }
            }
        }
        for (Supervised keeper : keepers.values()) {
            try {
                keeper.close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        dirs.values().forEach(FileTrees::delete);
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "etcd cluster of " + commands.size() + " members (" + endpoints() + ")";
    }

    private void endWith(String signal, String name) {
        if (Boolean.TRUE.equals(frozen.get(name))) {
            thaw(name);
        }
        signal(signal, name);
        try {
            if (!current(name).awaitExit(Duration.ofSeconds(10))) {
                throw new IllegalStateException("etcd " + name + " (pid " + pid(name) + ") was still running 10 s after SIG" + signal);
            }
            keepData(name);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for etcd " + name + " to end", e);
        }
    }

    /**
     * Puts the directory of an ended member under a stand-in's watchdog: the member's own watchdog exited with it,
     * and the directory must still go if this JVM dies before {@link #restart} or {@link #close()}.
     */
    private void keepData(String name) {
        Path dir = dirs.get(name);
        try {
            keepers.put(name, Supervised.start("the data of etcd " + name, List.of("sleep", "86400"), dir.resolve("keeper.log").toFile(), dir));
        } catch (IOException e) {
            throw new UncheckedIOException("could not put the data of etcd " + name + " under a watchdog", e);
        }
    }

    private void signal(String signal, String name) {
        long pid = pid(name);
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill -" + signal + " " + pid + " did not finish within 5 s");
            }
            if (kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " (etcd " + name + ") failed: "
                        + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run kill -" + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + signal + " to etcd " + name, e);
        }
    }

    private Supervised current(String name) {
        List<Supervised> memberRuns = runs.get(name);
        if (memberRuns == null || memberRuns.isEmpty()) {
            throw new IllegalArgumentException("no member named '" + name + "': the members are " + commands.keySet());
        }
        return memberRuns.get(memberRuns.size() - 1);
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

    private boolean logsSay(String text) {
        return commands.keySet().stream().anyMatch(name -> tail(name).contains(text));
    }

    private String tail(String name) {
        Path log = dirs.get(name).resolve("etcd.log");
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static OptionalLong number(Pattern pattern, String body) {
        Matcher found = pattern.matcher(body);
        // Member ids are unsigned 64-bit numbers.
        return found.find() ? OptionalLong.of(Long.parseUnsignedLong(found.group(1))) : OptionalLong.empty();
    }

    private static void closeAfterFailure(EtcdCluster cluster, RuntimeException failure) {
        try {
            cluster.close();
        } catch (RuntimeException cleanup) {
            failure.addSuppressed(cleanup);
        }
    }
}
