package fencing.lab.history;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Wing and Gong's search for an order of a history's operations that the model explains, with Lowe's pruning: a
 * (set of operations already placed, model state) pair is explored once.
 *
 * <p>The operations are events on a list in time order, an invocation and an answer each. The search takes the first
 * invocation it can apply, removes its two events and starts over from the head; reaching an answer whose operation
 * is not placed yet means the order so far cannot go on, so it takes back the last placement and tries the next
 * invocation instead. An operation of unknown outcome is answered after everything else, so once every answered
 * operation is placed the rest may simply never have taken effect.
 */
final class LinearizabilitySearch {

    /** How one search ended; {@code stuckAt} is the operation at whose answer it got furthest, when it failed. */
    record Ending(Linearizability.Answer answer, int stuckAt) {
    }

    /** The states a check may still explore, shared by all of its searches; a part of it also has a limit of its own. */
    static final class Budget {
        private final long max;
        private final Budget whole;
        private long spent;

        Budget(long max) {
            this(max, null);
        }

        private Budget(long max, Budget whole) {
            this.max = max;
            this.whole = whole;
        }

        /** Returns a part of this budget of at most {@code max} states, which spends from this one too. */
        Budget part(long max) {
            return new Budget(max, this);
        }

        boolean spend() {
            return (whole == null || whole.spend()) && ++spent <= max;
        }

        boolean exhausted() {
            return spent >= max;
        }

        long spent() {
            return Math.min(spent, max);
        }
    }

    /** A memo entry: the placed operations below {@code from} are all of them, so only the bits from there on are kept. */
    private record Seen(int from, long[] rest, SinkModel.State state) {

        @Override
        public boolean equals(Object other) {
            return other instanceof Seen seen && from == seen.from && Arrays.equals(rest, seen.rest) && state.equals(seen.state);
        }

        @Override
        public int hashCode() {
            return (31 * from + Arrays.hashCode(rest)) * 31 + state.hashCode();
        }
    }

    private record Placed(int call, SinkModel.State before) {
    }

    private final List<Operation> operations;
    private final SinkModel model;
    private final int head;
    private final int tail;
    private final int[] operationOf;
    private final boolean[] isCall;
    private final int[] answerOf;
    private final int[] next;
    private final int[] prev;

    /** Prepares a search of {@code operations}, which must be in invocation order. */
    LinearizabilitySearch(List<Operation> operations, SinkModel model) {
        this.operations = operations;
        this.model = model;
        int events = operations.size() * 2;
        Integer[] order = new Integer[events];
        for (int e = 0; e < events; e++) {
            order[e] = e;
        }
        // Event e is operation e / 2's invocation (even) or answer (odd). At one instant invocations go first, so that
        // an answer and an invocation at the same microsecond are never taken as one before the other.
        Arrays.sort(order, (a, b) -> {
            int byTime = Long.compare(timeOf(a), timeOf(b));
            return byTime != 0 ? byTime : Integer.compare(a % 2, b % 2) != 0 ? Integer.compare(a % 2, b % 2) : Integer.compare(a, b);
        });
        operationOf = new int[events];
        isCall = new boolean[events];
        answerOf = new int[operations.size()];
        for (int position = 0; position < events; position++) {
            operationOf[position] = order[position] / 2;
            isCall[position] = order[position] % 2 == 0;
            if (!isCall[position]) {
                answerOf[operationOf[position]] = position;
            }
        }
        head = events;
        tail = events + 1;
        next = new int[events + 2];
        prev = new int[events + 2];
        for (int position = 0; position < events; position++) {
            next[position] = position + 1;
            prev[position] = position - 1;
        }
        next[head] = events == 0 ? tail : 0;
        prev[tail] = events == 0 ? head : events - 1;
        if (events > 0) {
            prev[0] = head;
            next[events - 1] = tail;
        }
    }

    private long timeOf(int event) {
        Operation operation = operations.get(event / 2);
        return event % 2 == 0 ? operation.invokedAtMicros() : operation.answeredAtMicros();
    }

    /** Searches from {@code initial}; the list of events is as it was again when this returns. */
    Ending run(SinkModel.State initial, Budget budget) {
        BitSet placed = new BitSet(operations.size());
        Set<Seen> seen = new HashSet<>();
        Deque<Placed> stack = new ArrayDeque<>();
        SinkModel.State state = initial;
        int from = 0;
        int furthest = -1;
        int event = next[head];
        try {
            while (event != tail) {
                int operation = operationOf[event];
                if (!isCall[event]) {
                    if (operations.get(operation).answeredAtMicros() == Long.MAX_VALUE) {
                        return new Ending(Linearizability.Answer.LINEARIZABLE, -1);
                    }
                    furthest = Math.max(furthest, event);
                    if (stack.isEmpty()) {
                        return new Ending(Linearizability.Answer.NOT_LINEARIZABLE, operationOf[furthest]);
                    }
                    Placed last = stack.pop();
                    state = last.before();
                    placed.clear(operationOf[last.call()]);
                    from = Math.min(from, operationOf[last.call()]);
                    putBack(last.call());
                    event = next[last.call()];
                    continue;
                }
                Optional<SinkModel.State> after = model.step(state, operations.get(operation));
                if (after.isPresent()) {
                    placed.set(operation);
                    int newFrom = placed.nextClearBit(from);
                    long[] rest = placed.length() > newFrom ? placed.get(newFrom, placed.length()).toLongArray() : new long[0];
                    if (seen.add(new Seen(newFrom, rest, after.get()))) {
                        if (!budget.spend()) {
                            return new Ending(Linearizability.Answer.UNKNOWN, -1);
                        }
                        stack.push(new Placed(event, state));
                        state = after.get();
                        from = newFrom;
                        takeOut(event);
                        event = next[head];
                        continue;
                    }
                    placed.clear(operation);
                }
                event = next[event];
            }
            return new Ending(Linearizability.Answer.LINEARIZABLE, -1);
        } finally {
            while (!stack.isEmpty()) {
                putBack(stack.pop().call());
            }
        }
    }

    private void takeOut(int call) {
        int answer = answerOf[operationOf[call]];
        next[prev[call]] = next[call];
        prev[next[call]] = prev[call];
        next[prev[answer]] = next[answer];
        prev[next[answer]] = prev[answer];
    }

    private void putBack(int call) {
        int answer = answerOf[operationOf[call]];
        next[prev[answer]] = answer;
        prev[next[answer]] = answer;
        next[prev[call]] = call;
        prev[next[call]] = call;
    }
}
