package fencing.lab.history;

import fencing.lab.sink.Mode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Judges a recorded history, mode by mode, and fails closed: a history it cannot fully read is "unknown", never "ok".
 *
 * <p>Order is real time, never a guess: a write is <em>after</em> another only if it was sent after the
 * other's response arrived, so two writes in flight at once are never held against each other. Per mode, counted
 * in every mode and a violation only where the mode's {@link Contract} forbids it:
 * <ul>
 *   <li><b>stale write accepted</b>: an accepted write whose token is below the token of a write accepted
 *       before it was sent.</li>
 *   <li><b>lost update</b>: the newer owner's latest accepted write that a stale write then overwrote.</li>
 *   <li><b>expired-holder write accepted</b>: an accepted write sent after a newer token had been granted, so
 *       its holder's lease was gone.</li>
 *   <li><b>complete</b>: every write of the mode got a verdict; a write that got none may or may not have
 *       been applied, so the mode is then unknown.</li>
 * </ul>
 */
public final class HistoryChecker {

    /** The checker's answer, with the exit code {@code ./kit check-history} gives it. */
    public enum Verdict {
        OK(0), VIOLATIONS(1), UNKNOWN(2);

        private final int exitCode;

        Verdict(int exitCode) {
            this.exitCode = exitCode;
        }

        /** Returns the exit code: 0 no violation, 1 violations, 2 unknown. */
        public int exitCode() {
            return exitCode;
        }
    }

    /** What the lesson expects of a mode: which of its counts are violations. */
    public enum Contract {
        /** {@code plain}: no fencing, so its stale writes and lost updates are the lesson's expected outcome, counted only. */
        NONE("has no fencing, so its stale writes and lost updates are the lesson's expected outcome"),
        /**
         * A high-water mark ({@code fenced}): no stale write and no lost update; an expired holder's write that arrives
         * before any newer token reached the sink is its narrower contract, counted only.
         */
        HIGH_WATER_MARK("must accept no stale write and lose no update"),
        /** {@code current-owner}: as a high-water mark, and no write from a holder whose lease is gone. */
        CURRENT_OWNER("must accept no stale write, lose no update and accept no write of an expired holder");

        private final String promise;

        Contract(String promise) {
            this.promise = promise;
        }

        /** Returns the contract of {@code mode}. */
        public static Contract of(Mode mode) {
            return switch (mode) {
                case PLAIN -> NONE;
                case FENCED -> HIGH_WATER_MARK;
                case CURRENT_OWNER -> CURRENT_OWNER;
            };
        }

        /** Returns what the lesson expects of a mode with this contract, in words. */
        public String promise() {
            return promise;
        }

        int violations(int staleAccepted, int lostUpdates, int expiredHolderAccepted) {
            return switch (this) {
                case NONE -> 0;
                case HIGH_WATER_MARK -> staleAccepted + lostUpdates;
                case CURRENT_OWNER -> staleAccepted + lostUpdates + expiredHolderAccepted;
            };
        }
    }

    /**
     * One accepted write: when its response arrived, its token, and whether it was stale.
     *
     * @param line          the write's line in the history, which names it
     * @param expiredHolder whether a newer token had been granted before it was sent: its writer's lease was gone
     */
    public record Point(long atMicros, long token, String writer, boolean stale, int line, boolean expiredHolder) {
    }

    /** What one mode's writes show; {@code examples} name a few of the violations by line. */
    public record ModeFindings(Mode mode, int writes, int accepted, int rejected, int noVerdict, int staleAccepted,
                               int expiredHolderAccepted, int lostUpdates, boolean complete, Contract contract,
                               List<String> examples, List<Point> accepts) {

        /** Returns how many of this mode's counts its contract forbids: none for {@code plain}, whatever it accepted. */
        public int violations() {
            return contract.violations(staleAccepted, lostUpdates, expiredHolderAccepted);
        }
    }

    /** The whole answer: why the history is unreadable (if it is), and each mode's findings. */
    public record Findings(List<String> problems, long seed, int writers, Map<Mode, ModeFindings> modes) {

        /** Returns {@code UNKNOWN} for an unreadable history, else {@code VIOLATIONS} if any mode broke its contract, else {@code UNKNOWN} if a mode is incomplete, else {@code OK}. */
        public Verdict verdict() {
            if (!problems.isEmpty()) {
                return Verdict.UNKNOWN;
            }
            if (modes.values().stream().anyMatch(m -> m.violations() > 0)) {
                return Verdict.VIOLATIONS;
            }
            return modes.values().stream().allMatch(ModeFindings::complete) ? Verdict.OK : Verdict.UNKNOWN;
        }
    }

    private static final int MAX_EXAMPLES = 5;

    private HistoryChecker() {
    }

    /** Reads and judges {@code file}. */
    public static Findings check(Path file) {
        return check(History.read(file));
    }

    /** Judges {@code history}; an unreadable one gets no mode findings, only its problems. */
    public static Findings check(History history) {
        if (!history.problems().isEmpty()) {
            return new Findings(history.problems(), history.seed(), history.writers(), Map.of());
        }
        Map<Mode, ModeState> states = new LinkedHashMap<>();
        history.modes().forEach(mode -> states.put(mode, new ModeState(mode)));
        List<Step> steps = new ArrayList<>(history.writes().size() * 2 + history.acquisitions().size());
        for (HistoryLine.Acquired acquired : history.acquisitions()) {
            steps.add(new Step(acquired.atMicros(), 0, acquired, null));
        }
        for (History.Write write : history.writes()) {
            // At one instant, sends go before responses and grants: ties never make a write look later than it was.
            steps.add(new Step(write.sentAtMicros(), -1, null, write));
            steps.add(new Step(write.receivedAtMicros(), 1, null, write));
        }
        steps.sort(Comparator.comparingLong(Step::at).thenComparingInt(Step::kind));
        long newestGranted = Long.MIN_VALUE;
        for (Step step : steps) {
            if (step.acquired() != null) {
                newestGranted = Math.max(newestGranted, step.acquired().token());
            } else if (step.kind() < 0) {
                states.get(step.write().mode()).sent(step.write(), newestGranted);
            } else {
                states.get(step.write().mode()).answered(step.write());
            }
        }
        Map<Mode, ModeFindings> modes = new LinkedHashMap<>();
        states.forEach((mode, state) -> modes.put(mode, state.findings()));
        return new Findings(List.of(), history.seed(), history.writers(), modes);
    }

    private record Step(long at, int kind, HistoryLine.Acquired acquired, History.Write write) {
    }

    /** The running judgement of one mode. */
    private static final class ModeState {
        private final Mode mode;
        private final TreeMap<Long, History.Write> latestAcceptedByToken = new TreeMap<>();
        private final Set<Integer> lostLines = new HashSet<>();
        private final List<String> examples = new ArrayList<>();
        private final List<Point> accepts = new ArrayList<>();
        private long highestAnswered = Long.MIN_VALUE;
        private int writes;
        private int accepted;
        private int rejected;
        private int noVerdict;
        private int stale;
        private int expiredHolder;

        ModeState(Mode mode) {
            this.mode = mode;
        }

        void sent(History.Write write, long newestGranted) {
            writes++;
            if (write.verdict() == HistoryLine.Write.Verdict.ERROR) {
                noVerdict++;
                return;
            }
            if (!write.accepted()) {
                rejected++;
                return;
            }
            accepted++;
            boolean isStale = highestAnswered > write.token();
            boolean expired = newestGranted > write.token();
            if (expired) {
                expiredHolder++;
                example("line %d: %s's write with token %d accepted after token %d was granted: its lease was gone", write, newestGranted);
            }
            if (isStale) {
                stale++;
                example("line %d: stale write accepted: %s's token %d is below token %d, accepted before it was sent", write, highestAnswered);
                Map.Entry<Long, History.Write> newer = latestAcceptedByToken.tailMap(write.token(), false).entrySet().stream()
                        .max(Comparator.comparingLong(e -> e.getValue().receivedAtMicros())).orElse(null);
                if (newer != null && lostLines.add(newer.getValue().line())) {
                    examples.add(String.format("line %d: lost update: %s's %s (token %d) overwritten by the stale write on line %d",
                            newer.getValue().line(), newer.getValue().writer(), newer.getValue().value(), newer.getKey(), write.line()));
                }
            }
            accepts.add(new Point(write.receivedAtMicros(), write.token(), write.writer(), isStale, write.line(), expired));
        }

        void answered(History.Write write) {
            if (write.accepted()) {
                highestAnswered = Math.max(highestAnswered, write.token());
                latestAcceptedByToken.merge(write.token(), write, (a, b) -> a.receivedAtMicros() >= b.receivedAtMicros() ? a : b);
            }
        }

        private void example(String format, History.Write write, long other) {
            if (examples.size() < MAX_EXAMPLES * 3) {
                examples.add(String.format(format, write.line(), write.writer(), write.token(), other));
            }
        }

        ModeFindings findings() {
            accepts.sort(Comparator.comparingLong(Point::atMicros));
            return new ModeFindings(mode, writes, accepted, rejected, noVerdict, stale, expiredHolder, lostLines.size(), noVerdict == 0,
                    Contract.of(mode), List.copyOf(examples.subList(0, Math.min(examples.size(), MAX_EXAMPLES * 3))), accepts);
        }
    }
}
