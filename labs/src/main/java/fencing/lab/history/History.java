package fencing.lab.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A recorded chaos history, read and validated line by line (the format is in {@code labs/README.md}).
 *
 * <p>Reading never guesses: a line that is not JSON, lacks a field or has one of the wrong type makes the
 * history invalid, and a history without its closing lines (a writer's {@code writer-end}, the final
 * {@code end}) or whose counts do not match is incomplete. Either way {@link #problems()} says why, and a
 * checker must then answer "unknown".
 */
public final class History {

    /** The format this reader understands. */
    public static final int FORMAT = 1;

    /** A lock holder's acquisition: {@code writer} got {@code token} at {@code atMicros}. */
    public record Acquired(String writer, long token, long atMicros) {
    }

    /** One write to one mode, as its writer saw it; {@code verdict} is {@code accepted}, {@code rejected} or {@code error}. */
    public record Write(int line, String writer, long token, String lease, String mode, String value, long sentAtMicros,
                        long receivedAtMicros, String verdict) {

        boolean accepted() {
            return verdict.equals("accepted");
        }
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final List<String> problems = new ArrayList<>();
    private final List<Acquired> acquisitions = new ArrayList<>();
    private final List<Write> writes = new ArrayList<>();
    private final Set<String> modes = new LinkedHashSet<>();
    private final List<String> writerNames = new ArrayList<>();
    private final List<HistoryLine.Fault> faults = new ArrayList<>();
    private long seed;
    private int writers;

    private History() {
    }

    /** Returns why the history cannot be judged (invalid or incomplete), or nothing when it can. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /** Returns the modes the header names, in its order. */
    public Set<String> modes() {
        return modes;
    }

    /** Returns every acquisition, in file order. */
    public List<Acquired> acquisitions() {
        return acquisitions;
    }

    /** Returns every write, in file order. */
    public List<Write> writes() {
        return writes;
    }

    /** Returns the writers' names from the header, in its order. */
    public List<String> writerNames() {
        return List.copyOf(writerNames);
    }

    /** Returns what the nemesis did, in the history's order. */
    public List<HistoryLine.Fault> faults() {
        return List.copyOf(faults);
    }

    /** Returns the nemesis's seed from the header. */
    public long seed() {
        return seed;
    }

    /** Returns how many writers the header names. */
    public int writers() {
        return writers;
    }

    /** Reads {@code file}; a file that cannot be read is a problem of the history, not an exception. */
    public static History read(Path file) {
        History history = new History();
        if (!Files.isRegularFile(file)) {
            history.problems.add("no history file at " + file);
            return history;
        }
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            history.parse(in);
        } catch (IOException e) {
            history.problems.add("could not read " + file + ": " + e.getMessage());
        }
        return history;
    }

    private void parse(BufferedReader in) throws IOException {
        Map<String, Integer> writesBy = new LinkedHashMap<>();
        Map<String, Long> endedWith = new LinkedHashMap<>();
        Set<String> named = new LinkedHashSet<>();
        boolean header = false;
        Long endCount = null;
        int number = 0;
        for (String text = in.readLine(); text != null; text = in.readLine()) {
            number++;
            if (text.isBlank()) {
                continue;
            }
            if (endCount != null) {
                problems.add("line " + number + ": content after the end line");
                return;
            }
            JsonNode line;
            try {
                line = MAPPER.readTree(text);
            } catch (JsonProcessingException e) {
                problems.add("line " + number + ": not JSON (" + e.getOriginalMessage() + ")");
                return;
            }
            try {
                String type = text(line, "type");
                if (!header && !type.equals("history")) {
                    problems.add("line " + number + ": the first line must be the history header, got type '" + type + "'");
                    return;
                }
                switch (type) {
                    case "history" -> {
                        if (header) {
                            throw new IllegalArgumentException("a second history header");
                        }
                        header = true;
                        long format = number(line, "format");
                        if (format != FORMAT) {
                            throw new IllegalArgumentException("format " + format + " is not the format " + FORMAT + " this checker reads");
                        }
                        seed = number(line, "seed");
                        JsonNode names = field(line, "writerNames");
                        JsonNode modeList = field(line, "modes");
                        if (!names.isArray() || !modeList.isArray() || names.isEmpty() || modeList.isEmpty()) {
                            throw new IllegalArgumentException("writerNames and modes must be non-empty arrays");
                        }
                        names.forEach(n -> named.add(n.asText()));
                        modeList.forEach(m -> modes.add(m.asText()));
                        writers = named.size();
                        writerNames.addAll(named);
                    }
                    case "acquired" -> acquisitions.add(new Acquired(writer(line, named), number(line, "token"), number(line, "atMicros")));
                    case "write" -> {
                        Write write = new Write(number, writer(line, named), number(line, "token"), text(line, "lease"), text(line, "mode"),
                                text(line, "value"), number(line, "sentAtMicros"), number(line, "receivedAtMicros"), text(line, "verdict"));
                        if (!modes.contains(write.mode())) {
                            throw new IllegalArgumentException("mode '" + write.mode() + "' is not among the header's modes " + modes);
                        }
                        if (!Set.of("accepted", "rejected", "error").contains(write.verdict())) {
                            throw new IllegalArgumentException("verdict must be accepted, rejected or error, got '" + write.verdict() + "'");
                        }
                        if (write.receivedAtMicros() < write.sentAtMicros()) {
                            throw new IllegalArgumentException("received before it was sent");
                        }
                        writes.add(write);
                        writesBy.merge(write.writer(), 1, Integer::sum);
                    }
                    case "nemesis" -> faults.add(new HistoryLine.Fault(text(line, "action"), text(line, "writer"), number(line, "atMicros")));
                    case "released", "acquire-failed" -> number(line, "atMicros");
                    case "writer-end" -> {
                        String writer = writer(line, named);
                        if (endedWith.put(writer, number(line, "writes")) != null) {
                            throw new IllegalArgumentException("a second writer-end for " + writer);
                        }
                    }
                    case "end" -> endCount = number(line, "writes");
                    default -> throw new IllegalArgumentException("unknown type '" + type + "'");
                }
            } catch (IllegalArgumentException e) {
                problems.add("line " + number + ": " + e.getMessage());
                return;
            }
        }
        if (!header) {
            problems.add("empty: no history header");
            return;
        }
        for (String writer : named) {
            Long ended = endedWith.get(writer);
            int seen = writesBy.getOrDefault(writer, 0);
            if (ended == null) {
                problems.add("incomplete: writer " + writer + " has no writer-end line, so its record may stop short");
            } else if (ended != seen) {
                problems.add("incomplete: writer " + writer + " says it made " + ended + " writes, the history holds " + seen);
            }
        }
        if (endCount == null) {
            problems.add("incomplete: no end line (the history stops at line " + number + ")");
        } else if (endCount != writes.size()) {
            problems.add("incomplete: the end line counts " + endCount + " writes, the history holds " + writes.size());
        }
    }

    private static String writer(JsonNode line, Set<String> named) {
        String writer = text(line, "writer");
        if (!named.contains(writer)) {
            throw new IllegalArgumentException("writer '" + writer + "' is not among the header's writers " + named);
        }
        return writer;
    }

    private static JsonNode field(JsonNode line, String name) {
        JsonNode value = line.get(name);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("missing field '" + name + "'");
        }
        return value;
    }

    private static String text(JsonNode line, String name) {
        JsonNode value = field(line, name);
        if (!value.isTextual()) {
            throw new IllegalArgumentException("field '" + name + "' must be a string, got " + value);
        }
        return value.asText();
    }

    private static long number(JsonNode line, String name) {
        JsonNode value = field(line, name);
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new IllegalArgumentException("field '" + name + "' must be an integer, got " + value);
        }
        return value.asLong();
    }
}
