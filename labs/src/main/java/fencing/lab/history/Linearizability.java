package fencing.lab.history;

import fencing.lab.sink.Mode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Checks, mode by mode, whether some order of a history's writes, each placed between its invocation and its answer,
 * is one the {@link SinkModel} explains: whether the mode behaved like one register with a high-water mark.
 *
 * <p>The search ({@link LinearizabilitySearch}) is bounded: past {@code maxStates} explored states it answers
 * {@link Answer#UNKNOWN}, never runs on. When a history is not linearizable, the check narrows it down to the shortest
 * stretch of consecutive operations that no order explains on its own, searching outward from the operation the
 * search could not get past.
 */
public final class Linearizability {

    /** The default bound: a 20 s chaos run's mode needs about a thousand states, a 100,000-write history about 35,000. */
    public static final long DEFAULT_MAX_STATES = 200_000;

    /** The longest stretch the narrowing tries, in operations. */
    private static final int MAX_STRETCH = 64;

    /** The states one stretch's searches may explore before the narrowing moves on to the next stretch. */
    private static final long STATES_PER_STRETCH = 20_000;

    /** The answer for one mode. */
    public enum Answer { LINEARIZABLE, NOT_LINEARIZABLE, UNKNOWN }

    /**
     * The check of one mode.
     *
     * @param states   how many states its searches explored, the narrowing's included
     * @param stretch  when not linearizable, the shortest stretch found that no order explains, in invocation order
     * @param narrowed whether {@code stretch} is that stretch; if the bound stopped the narrowing, it is only the
     *                 operation the search could not get past
     */
    public record Result(Answer answer, SinkModel model, long states, long maxStates, List<Operation> stretch, boolean narrowed) {
    }

    private Linearizability() {
    }

    /** Checks each of {@code history}'s modes on its own, against the model of what the lesson expects of it. */
    public static Map<Mode, Result> check(History history, long maxStates) {
        Map<Mode, Result> results = new LinkedHashMap<>();
        for (Mode mode : history.modes()) {
            List<Operation> operations = history.writes().stream().filter(write -> write.mode() == mode).map(Operation::of).toList();
            results.put(mode, check(operations, SinkModel.of(HistoryChecker.Contract.of(mode)), maxStates));
        }
        return results;
    }

    /** Checks {@code operations}, from the empty sink, against {@code model}, exploring at most {@code maxStates} states. */
    public static Result check(List<Operation> operations, SinkModel model, long maxStates) {
        List<Operation> ordered = operations.stream()
                .sorted(Comparator.comparingLong(Operation::invokedAtMicros).thenComparingInt(Operation::line)).toList();
        LinearizabilitySearch.Budget budget = new LinearizabilitySearch.Budget(maxStates);
        LinearizabilitySearch.Ending ending = new LinearizabilitySearch(ordered, model).run(SinkModel.State.EMPTY, budget);
        if (ending.answer() != Answer.NOT_LINEARIZABLE) {
            return new Result(ending.answer(), model, budget.spent(), maxStates, List.of(), false);
        }
        List<Operation> stretch = narrow(ordered, model, ending.stuckAt(), budget);
        boolean narrowed = !stretch.isEmpty();
        return new Result(Answer.NOT_LINEARIZABLE, model, budget.spent(), maxStates,
                narrowed ? stretch : List.of(ordered.get(ending.stuckAt())), narrowed);
    }

    /**
     * Returns the shortest stretch around operation {@code stuck} that no order explains, or nothing if the budget ran out first.
     *
     * <p>A stretch is a run of operations consecutive by invocation. It is searched with the operations outside it that
     * overlap it in time and could have moved the mark, each free to take effect anywhere after it was sent, or not
     * at all; and from any mark the operations before it could have left (0, or the token of one that was accepted
     * or may have been), not from an empty sink, which would make a rejection look unexplained. Each of these only
     * adds orders, so a stretch that is still unexplained proves the whole history is not linearizable.
     */
    private static List<Operation> narrow(List<Operation> ordered, SinkModel model, int stuck, LinearizabilitySearch.Budget budget) {
        int lowest = Math.max(0, stuck - MAX_STRETCH + 1);
        EarlierMarks earlier = new EarlierMarks(ordered, lowest);
        for (int size = 1; size <= MAX_STRETCH; size++) {
            for (int from = Math.min(stuck, ordered.size() - size); from >= lowest && from + size > stuck; from--) {
                List<Operation> stretch = ordered.subList(from, from + size);
                switch (explains(ordered, from, stretch, model, earlier, budget)) {
                    case NOT_LINEARIZABLE -> {
                        return List.copyOf(stretch);
                    }
                    case UNKNOWN -> {
                        if (budget.exhausted()) {
                            return List.of();
                        }
                    }
                    case LINEARIZABLE -> {
                    }
                }
            }
        }
        return List.of();
    }

    private static Answer explains(List<Operation> ordered, int from, List<Operation> stretch, SinkModel model, EarlierMarks earlier,
                                   LinearizabilitySearch.Budget budget) {
        long start = stretch.get(0).invokedAtMicros();
        long end = stretch.stream().mapToLong(Operation::answeredAtMicros).max().orElseThrow();
        List<Operation> searched = new ArrayList<>(stretch);
        for (int i = 0; i < ordered.size() && ordered.get(i).invokedAtMicros() <= end; i++) {
            Operation other = ordered.get(i);
            boolean outside = i < from || i >= from + stretch.size();
            if (outside && other.answeredAtMicros() >= start && other.outcome() != Operation.Outcome.REJECTED) {
                searched.add(other.optional());
            }
        }
        searched.sort(Comparator.comparingLong(Operation::invokedAtMicros).thenComparingInt(Operation::line));
        LinearizabilitySearch search = new LinearizabilitySearch(searched, model);
        LinearizabilitySearch.Budget part = budget.part(STATES_PER_STRETCH);
        for (SinkModel.State state : earlier.startingStates(from, stretch)) {
            Answer answer = search.run(state, part).answer();
            if (answer != Answer.NOT_LINEARIZABLE) {
                return answer;
            }
        }
        return Answer.NOT_LINEARIZABLE;
    }

    /**
     * The marks the operations before a stretch could have left: 0, or the token of one that was accepted or may have been.
     *
     * <p>Kept as one set for the operations before the leftmost start the narrowing tries, and a scan of the few
     * after it, so that trying many starts costs no pass over the whole history each.
     */
    private static final class EarlierMarks {
        private final List<Operation> ordered;
        private final int base;
        private final TreeSet<Long> marks = new TreeSet<>(List.of(SinkModel.State.EMPTY.mark()));

        EarlierMarks(List<Operation> ordered, int base) {
            this.ordered = ordered;
            this.base = base;
            ordered.subList(0, base).stream().filter(EarlierMarks::mayHaveSetTheMark).forEach(operation -> marks.add(operation.token()));
        }

        private static boolean mayHaveSetTheMark(Operation operation) {
            return operation.outcome() != Operation.Outcome.REJECTED;
        }

        /** Returns the highest mark below {@code token} left before {@code from}, or {@code null}. */
        Long below(int from, long token) {
            Long best = marks.lower(token);
            for (Operation operation : ordered.subList(base, from)) {
                if (mayHaveSetTheMark(operation) && operation.token() < token && (best == null || operation.token() > best)) {
                    best = operation.token();
                }
            }
            return best;
        }

        /** Returns the lowest mark at or above {@code token} left before {@code from}, or {@code null}. */
        Long atOrAbove(int from, long token) {
            Long best = marks.ceiling(token);
            for (Operation operation : ordered.subList(base, from)) {
                if (mayHaveSetTheMark(operation) && operation.token() >= token && (best == null || operation.token() < best)) {
                    best = operation.token();
                }
            }
            return best;
        }

        /**
         * Returns one state for each way a mark left before {@code from} can stand to the stretch's tokens.
         *
         * <p>Only where the mark lies among the stretch's tokens decides the stretch's outcomes, so one mark per gap is
         * enough. A stretch at the history's start begins from the empty sink itself.
         */
        List<SinkModel.State> startingStates(int from, List<Operation> stretch) {
            if (from == 0) {
                return List.of(SinkModel.State.EMPTY);
            }
            TreeSet<Long> tokens = new TreeSet<>();
            stretch.forEach(operation -> tokens.add(operation.token()));
            List<SinkModel.State> states = new ArrayList<>();
            Long lowest = below(from, tokens.first());
            if (lowest != null) {
                states.add(new SinkModel.State(null, lowest));
            }
            for (long token : tokens) {
                Long mark = atOrAbove(from, token);
                Long nextToken = tokens.higher(token);
                if (mark != null && (nextToken == null || mark < nextToken)) {
                    states.add(new SinkModel.State(null, mark));
                }
            }
            return states;
        }
    }
}
