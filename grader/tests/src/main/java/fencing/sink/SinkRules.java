package fencing.sink;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The lesson's rules for the sink, in its words, and the short timelines the race tests show with them. */
final class SinkRules {

    /** The rule a race breaks: where the comparison must happen. */
    static final String TRANSACTION_RULE = "rule: read, compare and update in one BEGIN IMMEDIATE transaction";

    /** The rule a single write is judged by: which tokens are stale. */
    static final String FENCING_RULE = "rule: a write is accepted if and only if its token >= the high-water mark"
            + " (a token equal to the mark is the current owner's; one below it, even by one, is stale)";

    private SinkRules() {
    }

    /**
     * Returns how the paused run went as a timeline, such as
     * {@code writer 1 read mark 3 → writer 2 committed mark 9 → writer 1 wrote mark 5: mark went down}.
     */
    static String timeline(PausedWrites.Outcome outcome, long low, long high) {
        List<Long> marks = outcome.log().stream().map(SinkTable.Change::highWaterMark).collect(Collectors.toList());
        String paused = outcome.pausePoint() == 0 ? "writer 1 (token " + low + ") held up before its first statement"
                : "writer 1 (token " + low + ") ran \"" + outcome.pausedAfter() + "\" and paused"
                        + (outcome.writeLockHeld() ? " holding the write lock" : " without the write lock");
        String second = outcome.secondFinishedMeanwhile() ? "writer 2 (token " + high + ") ran to its end"
                : "writer 2 (token " + high + ") waited";
        boolean down = false;
        for (int i = 1; i < marks.size(); i++) {
            down |= marks.get(i) < marks.get(i - 1);
        }
        String end = "writer 1 resumed; marks in commit order " + marks + (down ? ": mark went down" : "");
        return "timeline: " + paused + " → " + second + " → " + end;
    }

    /**
     * Returns {@code failure} with an explanation when it is SQLITE_BUSY, which a transaction begun DEFERRED gets when
     * it tries to write after another writer took the lock.
     */
    static String explained(String failure) {
        if (failure == null || !failure.toUpperCase(Locale.ROOT).contains("SQLITE_BUSY")) {
            return failure;
        }
        return failure + " (SQLITE_BUSY here means the transaction began DEFERRED, with a plain BEGIN or with"
                + " autocommit turned off: it read under a shared lock, and when it tried to write, another writer held"
                + " the write lock; SQLite cannot let it wait without risking deadlock, so it fails at once instead of"
                + " using the busy timeout. Begin with BEGIN IMMEDIATE: the write lock is then taken, and waited for,"
                + " before the read)";
    }
}
