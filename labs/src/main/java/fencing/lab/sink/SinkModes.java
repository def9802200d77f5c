package fencing.lab.sink;

import fencing.sink.ConnectionSource;
import fencing.sink.PlainSink;
import fencing.sink.Sink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The sinks behind a server's modes, one SQLite file each: {@code plain} a {@link PlainSink}, {@code fenced} a {@link FencedVariant}. */
final class SinkModes {

    private SinkModes() {
    }

    /** Opens every mode's sink over its file in {@code dir}, in the order of {@link SinkServer#MODES}. */
    static Map<String, Sink> open(Path dir, FencedVariant variant, CheckOutsideTransactionSink.Pause pause) {
        Map<String, Sink> sinks = new LinkedHashMap<>();
        sinks.put("plain", new PlainSink(ConnectionSource.sqlite(dir.resolve("plain.db"))));
        sinks.put("fenced", variant.open(ConnectionSource.sqlite(dir.resolve("fenced.db")), pause));
        return sinks;
    }

    /**
     * Runs each sink's code once before the first request: reads of the real files, and writes to a scratch file.
     *
     * <p>The first SQLite connection of a JVM loads the native library and the first write runs code
     * nothing ran before, which takes longer than any later call; done here, it stays out of the
     * experiment's timings. A sink that is not implemented yet is reported, not hidden: its name and
     * message go into the server's health and its first line.
     */
    static List<String> warmUp(Path dir, Map<String, Sink> sinks, FencedVariant variant) throws IOException {
        List<String> notReady = new ArrayList<>();
        Files.createDirectories(dir.resolve("warm-up"));
        try {
            Map<String, Sink> scratch = open(dir.resolve("warm-up"), variant, (token, markSeen) -> { });
            for (String mode : sinks.keySet()) {
                try {
                    sinks.get(mode).read();
                    scratch.get(mode).write(1, "warm-up");
                } catch (UnsupportedOperationException notYet) {
                    notReady.add(sinks.get(mode).getClass().getSimpleName() + ": " + notYet.getMessage());
                }
            }
        } finally {
            fencing.support.FileTrees.delete(dir.resolve("warm-up"));
        }
        return List.copyOf(notReady);
    }
}
