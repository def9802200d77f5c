package fencing.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The processes of an {@link EtcdCluster}'s members: each member's runs under {@link Supervised}, newest last, whether it
 * is frozen, and for an ended member a stand-in watchdog that still removes its data if this JVM dies.
 */
final class MemberRuns {

    private final ClusterLayout layout;
    private final Path binary;
    private final Map<String, List<Supervised>> runs = new LinkedHashMap<>();
    private final Map<String, Boolean> frozen = new LinkedHashMap<>();
    private final Map<String, Supervised> keepers = new LinkedHashMap<>();

    MemberRuns(ClusterLayout layout, Path binary) {
        this.layout = layout;
        this.binary = binary;
    }

    /** Starts member {@code name} over its directory, after giving back the watchdog of its data, if it had ended. */
    void launch(String name) {
        Supervised keeper = keepers.remove(name);
        if (keeper != null) {
            keeper.closeKeepingWorkDir();
        }
        Path dir = layout.dirs().get(name);
        try {
            runs.computeIfAbsent(name, n -> new ArrayList<>()).add(Supervised.start("etcd " + name, layout.commands().get(name),
                    dir.resolve("etcd.log").toFile(), dir));
        } catch (IOException e) {
            throw new UncheckedIOException("could not start etcd " + name + " from " + binary, e);
        }
        frozen.put(name, false);
    }

    /** Returns the member's current run. */
    Supervised current(String name) {
        List<Supervised> memberRuns = runs.get(name);
        if (memberRuns == null || memberRuns.isEmpty()) {
            throw new IllegalArgumentException("no member named '" + name + "': the members are " + layout.commands().keySet());
        }
        return memberRuns.get(memberRuns.size() - 1);
    }

    /** Returns whether the member was frozen and not thawed since. */
    boolean frozen(String name) {
        return Boolean.TRUE.equals(frozen.get(name));
    }

    /** Freezes ({@code true}, SIGSTOP) or thaws ({@code false}, SIGCONT) the member. */
    void freeze(String name, boolean freeze) {
        MemberStatus.signal(freeze ? "STOP" : "CONT", current(name).pid(), "etcd " + name);
        frozen.put(name, freeze);
    }

    /** Ends the member with SIG{@code signal} (thawing it first) and waits until it is gone; its data stays, under a watchdog. */
    void endWith(String signal, String name) {
        if (frozen(name)) {
            freeze(name, false);
        }
        MemberStatus.signal(signal, current(name).pid(), "etcd " + name);
        try {
            if (!current(name).awaitExit(Duration.ofSeconds(10))) {
                throw new IllegalStateException("etcd " + name + " (pid " + current(name).pid() + ") was still running 10 s after SIG" + signal);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for etcd " + name + " to end", e);
        }
        keepData(name);
    }

    /** Puts the data of the ended member {@code name} under a watchdog of its own, until it is started again or closed. */
    void keepData(String name) {
        // The member's own watchdog exited with it; the directory must still go if this JVM dies before a restart or close.
        Path dir = layout.dirs().get(name);
        try {
            keepers.put(name, Supervised.start("the data of etcd " + name, List.of("sleep", "86400"), dir.resolve("keeper.log").toFile(), dir));
        } catch (IOException e) {
            throw new UncheckedIOException("could not put the data of etcd " + name + " under a watchdog", e);
        }
    }

    /** Thaws and ends every run and watchdog; returns the first failure, the others dropped for it, or {@code null}. */
    RuntimeException closeAll() {
        RuntimeException failure = null;
        for (String name : runs.keySet()) {
            if (frozen(name) && current(name).isAlive()) {
                try {
                    freeze(name, false);
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
        return failure;
    }
}
