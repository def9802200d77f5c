package fencing.lab.history;

import fencing.lab.sink.Mode;
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
 * A recorded chaos history, read and validated line by line (the format is {@link HistoryLine}'s, described in {@code labs/README.md}).
 *
 * <p>Reading never guesses: a line that is not JSON, lacks a field or has one of the wrong type makes the
 * history invalid, and a history without its closing lines (a writer's {@code writer-end}, the final
 * {@code end}) or whose counts do not match is incomplete. Either way {@link #problems()} says why, and a
 * checker must then answer "unknown".
 */
public final class History {

    /** The format this reader understands. */
    public static final int FORMAT = 1;

    /** One write to one mode, as its writer saw it, and the line of the file it is on. */
    public record Write(int line, String writer, long token, String lease, Mode mode, String value, long sentAtMicros,
                        long receivedAtMicros, HistoryLine.Write.Verdict verdict) {

        private Write(int line, HistoryLine.Write write) {
            this(line, write.writer(), write.token(), write.lease(), write.mode(), write.value(), write.sentAtMicros(),
                    write.receivedAtMicros(), write.verdict());
        }

        boolean accepted() {
            return verdict == HistoryLine.Write.Verdict.ACCEPTED;
        }
    }

    private final List<String> problems = new ArrayList<>();
    private final List<HistoryLine.Acquired> acquisitions = new ArrayList<>();
    private final List<Write> writes = new ArrayList<>();
    private final Set<Mode> modes = new LinkedHashSet<>();
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
    public Set<Mode> modes() {
        return modes;
    }

    /** Returns every acquisition, in file order. */
    public List<HistoryLine.Acquired> acquisitions() {
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
        Map<String, Integer> endedWith = new LinkedHashMap<>();
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
            try {
                HistoryLine line = HistoryLineReader.read(text);
                if (!header && !(line instanceof HistoryLine.Header)) {
                    problems.add("line " + number + ": the first line must be the history header, got type '" + HistoryLineReader.typeOf(line) + "'");
                    return;
                }
                if (line instanceof HistoryLine.Header read) {
                    if (header) {
                        throw new IllegalArgumentException("a second history header");
                    }
                    header = true;
                    header(read, named);
                } else if (line instanceof HistoryLine.Acquired acquired) {
                    named(acquired.writer(), named);
                    acquisitions.add(acquired);
                } else if (line instanceof HistoryLine.Write read) {
                    Write write = write(number, read, named);
                    writes.add(write);
                    writesBy.merge(write.writer(), 1, Integer::sum);
                } else if (line instanceof HistoryLine.Fault fault) {
                    faults.add(fault);
                } else if (line instanceof HistoryLine.WriterEnd end) {
                    if (endedWith.put(named(end.writer(), named), end.writes()) != null) {
                        throw new IllegalArgumentException("a second writer-end for " + end.writer());
                    }
                } else if (line instanceof HistoryLine.End end) {
                    endCount = end.writes();
                }
                // A released or acquire-failed line needs nothing but its time, which reading it required.
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
            Integer ended = endedWith.get(writer);
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

    private void header(HistoryLine.Header read, Set<String> named) {
        if (read.format() != FORMAT) {
            throw new IllegalArgumentException("format " + read.format() + " is not the format " + FORMAT + " this checker reads");
        }
        seed = read.seed();
        if (read.writerNames().isEmpty() || read.modes().isEmpty()) {
            throw new IllegalArgumentException("writerNames and modes must be non-empty arrays");
        }
        named.addAll(read.writerNames());
        modes.addAll(read.modes());
        writers = named.size();
        writerNames.addAll(named);
    }

    private Write write(int number, HistoryLine.Write read, Set<String> named) {
        named(read.writer(), named);
        // Its mode and verdict are ones there are, or the line would not have read; the mode must also be one the header names.
        if (!modes.contains(read.mode())) {
            throw new IllegalArgumentException("mode '" + read.mode().text() + "' is not among the header's modes " + modes);
        }
        if (read.receivedAtMicros() < read.sentAtMicros()) {
            throw new IllegalArgumentException("received before it was sent");
        }
        return new Write(number, read);
    }

    private static String named(String writer, Set<String> named) {
        if (!named.contains(writer)) {
            throw new IllegalArgumentException("writer '" + writer + "' is not among the header's writers " + named);
        }
        return writer;
    }
}
