package fencing.lab.history;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes a history by hand, line by line, with the closing lines counted right unless told otherwise. */
final class HandMadeHistory {

    private final List<String> lines = new ArrayList<>();
    private final Map<String, Integer> writesBy = new LinkedHashMap<>();
    private final List<String> writers;

    HandMadeHistory(List<String> writers, List<String> modes) {
        this.writers = writers;
        lines.add(String.format(Locale.ROOT, "{\"type\":\"history\",\"format\":1,\"seed\":42,\"writerNames\":[%s],\"modes\":[%s],\"ttlMillis\":2000}",
                quoted(writers), quoted(modes)));
        writers.forEach(w -> writesBy.put(w, 0));
    }

    HandMadeHistory acquired(String writer, long token, long at) {
        lines.add(String.format(Locale.ROOT, "{\"type\":\"acquired\",\"writer\":\"%s\",\"token\":%d,\"lease\":\"0x1\",\"atMicros\":%d}", writer, token, at));
        return this;
    }

    HandMadeHistory write(String writer, long token, String mode, long sent, long received, String verdict) {
        lines.add(String.format(Locale.ROOT, "{\"type\":\"write\",\"writer\":\"%s\",\"token\":%d,\"lease\":\"0x1\",\"mode\":\"%s\",\"value\":\"%s-%d\","
                + "\"sentAtMicros\":%d,\"receivedAtMicros\":%d,\"verdict\":\"%s\",\"after\":{\"value\":\"x\",\"highWaterMark\":0}}",
                writer, token, mode, writer, sent, sent, received, verdict));
        writesBy.merge(writer, 1, Integer::sum);
        return this;
    }

    HandMadeHistory line(String raw) {
        lines.add(raw);
        return this;
    }

    /** Returns the lines with every writer-end and the end line. */
    List<String> complete() {
        List<String> all = new ArrayList<>(lines);
        writesBy.forEach((writer, count) -> all.add(String.format(Locale.ROOT, "{\"type\":\"writer-end\",\"writer\":\"%s\",\"writes\":%d}", writer, count)));
        all.add(String.format(Locale.ROOT, "{\"type\":\"end\",\"writes\":%d}", writesBy.values().stream().mapToInt(Integer::intValue).sum()));
        return all;
    }

    Path save(Path dir, String name) {
        return save(dir, name, complete());
    }

    static Path save(Path dir, String name, List<String> lines) {
        try {
            return Files.write(dir.resolve(name), lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<String> writers() {
        return writers;
    }

    private static String quoted(List<String> names) {
        return String.join(",", names.stream().map(n -> "\"" + n + "\"").toList());
    }
}
