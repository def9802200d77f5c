package fencing.lab.sink;

import fencing.sink.ConnectionSource;
import fencing.sink.OwnerCheck;
import fencing.sink.OwnerCheckingSink;
import fencing.sink.PlainSink;
import fencing.sink.Sink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sinks behind a server's modes, one SQLite file each: {@code plain} a {@link PlainSink}, {@code fenced} a
 * {@link FencedVariant}, and, when the server knows the lab's etcd, {@code current-owner} an {@link OwnerCheckingSink}.
 */
final class SinkModes {

    /** The mode that asks the lock service on every write. */
    static final String CURRENT_OWNER = "current-owner";

    private SinkModes() {
    }

    /** Opens every mode's sink over its file in {@code dir}: those of {@link SinkServer#MODES}, then current-owner if {@code owners} is given. */
    static Map<String, Sink> open(Path dir, FencedVariant variant, CheckOutsideTransactionSink.Pause pause, OwnerCheck owners) {
        Map<String, Sink> sinks = new LinkedHashMap<>();
        sinks.put("plain", new PlainSink(ConnectionSource.sqlite(dir.resolve("plain.db"))));
        sinks.put("fenced", variant.open(ConnectionSource.sqlite(dir.resolve("fenced.db")), pause));
        if (owners != null) {
            sinks.put(CURRENT_OWNER, new OwnerCheckingSink(ConnectionSource.sqlite(dir.resolve("current-owner.db")), owners));
        }
        return sinks;
    }

    /**
     * Runs each sink's code once before the first request: reads of the real files, and writes to a scratch file.
     *
     * <p>The first SQLite connection of a JVM loads the native library and the first write runs code
     * nothing ran before, which takes longer than any later call; done here, it stays out of the
     * experiment's timings. A sink that is not implemented yet is reported, not hidden: its name and
     * message go into the server's health and its first line, by mode. The owner check is asked on its own
     * too, because an owner-checking sink that fails closed would turn a check not written yet into rejections.
     */
    static Map<String, String> warmUp(Path dir, Map<String, Sink> sinks, FencedVariant variant, OwnerCheck owners, OwnerCheck firstCheck)
            throws IOException {
        Map<String, String> notReady = new LinkedHashMap<>();
        Path scratchDir = dir.resolve("warm-up");
        Files.createDirectories(scratchDir);
        try {
            if (firstCheck != null) {
                try {
                    firstCheck.isCurrent(1);
                } catch (UnsupportedOperationException notYet) {
                    notReady.put(CURRENT_OWNER, "EtcdOwnerCheck: " + notYet.getMessage());
                }
            }
            Map<String, Sink> scratch = open(scratchDir, variant, (token, markSeen) -> { }, owners);
            for (String mode : sinks.keySet()) {
                try {
                    sinks.get(mode).read();
                    scratch.get(mode).write(1, "warm-up");
                } catch (UnsupportedOperationException notYet) {
                    notReady.merge(mode, sinks.get(mode).getClass().getSimpleName() + ": " + notYet.getMessage(), (first, next) -> first + "; " + next);
                }
            }
            for (String message : Ledgers.warmUp(scratchDir)) {
                notReady.put("idempotent", message);
            }
        } finally {
            fencing.support.FileTrees.delete(scratchDir);
        }
        return notReady;
    }

    /** Returns the messages of {@code notReady} as a list, for the server's health. */
    static List<String> messages(Map<String, String> notReady) {
        return new ArrayList<>(notReady.values());
    }
}
