package fencing.sink;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A fixed schedule of writes by several sink processes on one SQLite file, and what a correct sink answers to each.
 *
 * <p>The schedule is a function of a recorded seed and of how many statements one write runs alone. It begins with
 * whole writes, one at a time, each sink after another one, in every case the fencing rule tells apart: a token above
 * the mark, equal to it, one below it and far below it. Then come overlapping pairs: a write paused after each of its
 * statements in turn (0 standing for before its first) while another sink writes, its token one below the other's, and
 * also equal to it, above it or far below it. A correct sink answers a pair as it would answer the two writes run one
 * after the other in some order, so {@link #answer} says, for every step, what it may answer: nothing is left to how the
 * machine happens to schedule threads.
 */
final class WriteSchedule {

    /** How a step's token stands to the mark (a whole write) or to the other write's token (a pair). */
    enum Relation {
        ABOVE("above"), EQUAL("equal to"), JUST_BELOW("one below"), FAR_BELOW("far below");

        private final String words;

        Relation(String words) {
            this.words = words;
        }
    }

    /**
     * A whole write by sink {@code writer}, or, when {@code pauseAfter >= 0}, a pair: that write paused after its
     * statement {@code pauseAfter} while sink {@code other} writes {@code otherToken}.
     */
    record Step(int writer, long token, String value, Relation relation, long markBefore, int pauseAfter,
                int other, long otherToken, String otherValue) {

        boolean overlapping() {
            return pauseAfter >= 0;
        }

        @Override
        public String toString() {
            if (!overlapping()) {
                return String.format("sink %d writes token %d (%s the mark %d)", writer, token, relation.words, markBefore);
            }
            return String.format("sink %d writes token %d (%s sink %d's token %d; the mark was %d), paused %s, while sink"
                    + " %d writes token %d", writer, token, relation.words, other, otherToken, markBefore,
                    pauseAfter == 0 ? "before its first statement" : "after its statement " + pauseAfter, other, otherToken);
        }
    }

    /** What a correct sink answers to one write, and the state it leaves. */
    record Answer(WriteResult result, SinkState after) {
    }

    private static final int WHOLE_ABOVE = 4;
    private static final int WHOLE_OF_EACH_OTHER = 3;

    private WriteSchedule() {
    }

    /** Returns the schedule for {@code writers} sinks on a file whose mark is {@code startMark} (at least 3). */
    static List<Step> of(long seed, int writers, long startMark, int statementsPerWrite) {
        Random random = new Random(seed);
        List<Relation> whole = new ArrayList<>(Collections.nCopies(WHOLE_ABOVE, Relation.ABOVE));
        for (Relation relation : List.of(Relation.EQUAL, Relation.JUST_BELOW, Relation.FAR_BELOW)) {
            whole.addAll(Collections.nCopies(WHOLE_OF_EACH_OTHER, relation));
        }
        Collections.shuffle(whole, random);

        List<Step> steps = new ArrayList<>();
        long mark = startMark;
        int last = random.nextInt(writers);
        for (Relation relation : whole) {
            int writer = another(random, writers, last);
            long token = relative(random, relation, mark);
            steps.add(new Step(writer, token, value(steps.size(), writer, token), relation, mark, -1, -1, 0, null));
            mark = Math.max(mark, token);
            last = writer;
        }
        List<Relation> besides = List.of(Relation.EQUAL, Relation.ABOVE, Relation.FAR_BELOW);
        int offset = random.nextInt(besides.size());
        for (int k = 0; k <= statementsPerWrite; k++) {
            for (Relation relation : List.of(Relation.JUST_BELOW, besides.get((k + offset) % besides.size()))) {
                int writer = another(random, writers, last);
                int other = another(random, writers, writer);
                long otherToken = mark + 1 + random.nextInt(5);
                long token = relative(random, relation, otherToken);
                int index = steps.size();
                steps.add(new Step(writer, token, value(index, writer, token), relation, mark, k,
                        other, otherToken, value(index, other, otherToken)));
                mark = Math.max(mark, Math.max(token, otherToken));
                last = other;
            }
        }
        return List.copyOf(steps);
    }

    /** Returns what a correct sink in state {@code before} answers to {@code write(token, value)}. */
    static Answer answer(SinkState before, long token, String value) {
        if (token < before.highWaterMark()) {
            return new Answer(new WriteResult(false, before.highWaterMark(), before.value()), before);
        }
        return new Answer(new WriteResult(true, token, value), new SinkState(value, token));
    }

    private static int another(Random random, int writers, int not) {
        return (not + 1 + random.nextInt(writers - 1)) % writers;
    }

    private static long relative(Random random, Relation relation, long to) {
        return switch (relation) {
            case ABOVE -> to + 1 + random.nextInt(5);
            case EQUAL -> to;
            case JUST_BELOW -> to - 1;
            case FAR_BELOW -> to - 2 - random.nextInt((int) Math.min(8, to - 2));
        };
    }

    private static String value(int step, int writer, long token) {
        return "step " + (step + 1) + ", sink " + writer + " (token " + token + ")";
    }
}
