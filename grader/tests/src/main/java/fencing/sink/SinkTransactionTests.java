package fencing.sink;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grading.Graded;
import fencing.grading.TestGroup;
import fencing.sink.PausedWrites.Call;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@TestGroup("sink-transaction")
@DisplayName("FencedSink: the comparison and the write happen in one database transaction")
class SinkTransactionTests {

    private static final long SEED_MARK = 3;
    private static final long LOW = 5;
    private static final long HIGH = 9;
    private static final String LOW_VALUE = "writer 1 (token 5)";
    private static final String HIGH_VALUE = "writer 2 (token 9)";

    private static final int WRITERS = 6;
    private static final long SCHEDULE_SEED = 20_240_607L;
    private static final long START_MARK = 20;

    @Test
    @Graded(points = 3, tags = "comparison-in-transaction")
    @DisplayName("A writer paused after any of its statements never gets its lower token past a higher one")
    void pausedLowerWriterNeverOverwritesAHigherToken(@TempDir Path dir) {
        Path alone = dir.resolve("alone.db");
        SinkTable.prepare(alone, "seed", SEED_MARK);
        List<String> statements = PausedWrites.statementsOfOneWrite(alone, LOW, LOW_VALUE);
        assertThat(statements)
                .as("a write must run its statements on connections from the ConnectionSource it is given: "
                        + "the high-water mark lives in that database, but this write ran none")
                .isNotEmpty();

        for (int k = 0; k <= statements.size(); k++) {
            Path file = dir.resolve("paused-after-" + k + ".db");
            SinkTable.prepare(file, "seed", SEED_MARK);
            SinkTable.installCommitLog(file);

            Optional<PausedWrites.Outcome> run = PausedWrites.run(file, k, LOW, LOW_VALUE, HIGH, HIGH_VALUE);

            assertThat(run)
                    .as("alone, a write with token 5 ran %d statements %s; run again, it ended before statement %d: "
                            + "a write must do the same work every time", statements.size(), statements, k)
                    .isPresent();
            checkPausedRun(run.get());
        }
    }

    private static void checkPausedRun(PausedWrites.Outcome outcome) {
        // Each message's first line is the rule and what was observed; how the two writes ran follows on the next.
        String how = outcome.interleaving() + "; " + SinkRules.timeline(outcome, LOW, HIGH);
        assertThat(SinkRules.explained(outcome.first().failure()))
                .as("%s; observed: writer 1 (token 5) threw%nevery write must end accepted or rejected, never with an"
                        + " exception, even when another writer competes: %s", SinkRules.TRANSACTION_RULE, how)
                .isNull();
        assertThat(SinkRules.explained(outcome.second().failure()))
                .as("%s; observed: writer 2 (token 9) threw%nevery write must end accepted or rejected, never with an"
                        + " exception, even when another writer competes: %s", SinkRules.TRANSACTION_RULE, how)
                .isNull();
        assertThat(outcome.second().accepted())
                .as("a write with token 9, the highest token ever offered (the mark was %d), must be accepted; observed:"
                        + " writer 2 got %s%n%s; %s", SEED_MARK, outcome.second().result(), how, SinkRules.TRANSACTION_RULE)
                .isTrue();

        List<Long> marks = outcome.log().stream().map(SinkTable.Change::highWaterMark).collect(Collectors.toList());
        assertThat(marks)
                .as("the high-water mark must never go down; observed: the marks, in the order the database committed"
                        + " them, were %s%n%s; %s", marks, how, SinkRules.TRANSACTION_RULE)
                .isSorted();
        assertThat(outcome.after())
                .as("after both writes the sink must hold the highest accepted write, token 9; observed: the database holds"
                        + " %s%n%s; %s", outcome.after(), how, SinkRules.TRANSACTION_RULE)
                .isEqualTo(new SinkState(HIGH_VALUE, HIGH));

        List<String> values = outcome.log().stream().map(SinkTable.Change::value).collect(Collectors.toList());
        if (outcome.first().accepted()) {
            assertThat(values.indexOf(LOW_VALUE))
                    .as("a lower token must never be accepted after a higher one has committed; observed: writer 1 was"
                            + " told its token 5 was accepted, and the values, in commit order, were %s%n%s; %s", values,
                            how, SinkRules.TRANSACTION_RULE)
                    .isBetween(0, values.indexOf(HIGH_VALUE) - 1);
        } else {
            assertThat(values)
                    .as("a rejected write's value must never be stored; observed: writer 1 was told its token 5 was"
                            + " rejected, and the values, in commit order, were %s%n%s; %s", values, how,
                            SinkRules.TRANSACTION_RULE)
                    .doesNotContain(LOW_VALUE);
        }
    }

    @Test
    @Graded(points = 2, tags = "comparison-in-transaction")
    @DisplayName("Many writers at once: each gets a verdict, and the highest accepted write wins")
    void concurrentWritersEachGetAVerdictAndTheHighestAcceptedWins(@TempDir Path dir) {
        Path alone = dir.resolve("alone.db");
        SinkTable.prepare(alone, "seed", START_MARK);
        int statements = PausedWrites.statementsOfOneWrite(alone, START_MARK + 1, "alone").size();
        Path file = dir.resolve("schedule.db");
        SinkTable.prepare(file, "seed", START_MARK);
        SinkTable.installCommitLog(file);
        List<PausedWrites.Relay> relays = new ArrayList<>();
        List<Sink> sinks = new ArrayList<>();
        for (int i = 0; i < WRITERS; i++) {
            PausedWrites.Relay relay = new PausedWrites.Relay();
            ConnectionSource db = new ObservedConnections(PausedWrites.ready(file), relay);
            relays.add(relay);
            // Sink 0 is the submission's class as loaded; the others each load their own copy, as separate processes would.
            sinks.add(i == 0 ? new FencedSink(db) : IsolatedSinks.newFencedSink(db));
        }

        List<WriteSchedule.Step> schedule = WriteSchedule.of(SCHEDULE_SEED, WRITERS, START_MARK, statements);
        Run run = new Run(file, sinks, relays, schedule);
        // Each step compares every answer and the database with those of the writes run one after the other, so after
        // the last step the sink holds the highest accepted write.
        for (int i = 0; i < schedule.size(); i++) {
            run.step(i);
        }
    }

    /** The schedule being run, with the state a correct sink would be in after the steps so far. */
    private static final class Run {

        private final Path file;
        private final List<Sink> sinks;
        private final List<PausedWrites.Relay> relays;
        private final List<WriteSchedule.Step> schedule;
        private SinkState model = new SinkState("seed", START_MARK);

        Run(Path file, List<Sink> sinks, List<PausedWrites.Relay> relays, List<WriteSchedule.Step> schedule) {
            this.file = file;
            this.sinks = sinks;
            this.relays = relays;
            this.schedule = schedule;
        }

        void step(int i) {
            WriteSchedule.Step step = schedule.get(i);
            if (step.overlapping()) {
                pair(i, step);
            } else {
                whole(i, step);
            }
        }

        private void whole(int i, WriteSchedule.Step step) {
            Object answered = answered(Call.of(() -> sinks.get(step.writer()).write(step.token(), step.value())));
            WriteSchedule.Answer expected = WriteSchedule.answer(model, step.token(), step.value());
            SinkState after = SinkTable.read(file);
            assertThat(Arrays.asList(answered, after))
                    .as("%s; observed: step %d, %s, %s%nevery write ends accepted or rejected, never with an exception;"
                                    + " run alone, it must answer %s and leave %s; it answered %s and left %s%n%s",
                            SinkRules.FENCING_RULE, i + 1, step, brief(answered), expected.result(), expected.after(), answered,
                            after, where(i))
                    .isEqualTo(Arrays.asList(expected.result(), expected.after()));
            model = expected.after();
        }

        private void pair(int i, WriteSchedule.Step step) {
            PausedWrites.Outcome outcome = PausedWrites.overlap(file, step.pauseAfter(), relays.get(step.writer()),
                    sinks.get(step.writer()), step.token(), step.value(),
                    sinks.get(step.other()), step.otherToken(), step.otherValue());
            Object paused = answered(outcome.first());
            Object other = answered(outcome.second());
            WriteSchedule.Answer pausedFirst = WriteSchedule.answer(model, step.token(), step.value());
            WriteSchedule.Answer otherAfter = WriteSchedule.answer(pausedFirst.after(), step.otherToken(), step.otherValue());
            WriteSchedule.Answer otherFirst = WriteSchedule.answer(model, step.otherToken(), step.otherValue());
            WriteSchedule.Answer pausedAfter = WriteSchedule.answer(otherFirst.after(), step.token(), step.value());
            // Held before its first statement, the paused write came second; ended before its pause point, it came first.
            boolean asPausedFirst = step.pauseAfter() > 0
                    && List.of(pausedFirst.result(), otherAfter.result(), otherAfter.after())
                            .equals(Arrays.asList(paused, other, outcome.after()));
            boolean asOtherFirst = outcome.pausedAfter() != null
                    && List.of(pausedAfter.result(), otherFirst.result(), pausedAfter.after())
                            .equals(Arrays.asList(paused, other, outcome.after()));
            // The whole message is written here: its first line is the rule and what was seen, the details follow.
            assertThat(asPausedFirst || asOtherFirst)
                    .withFailMessage("%s; observed: step %d, sink %d (token %d) %s and sink %d (token %d) %s, leaving"
                                    + " the mark at %s, which neither order gives%n"
                                    + "two writes that overlap must each get the verdict they would get had one run entirely"
                                    + " before the other, and end accepted or rejected, never with an exception;"
                                    + " sink %d answered %s and sink %d %s, and the database holds %s;"
                                    + " sink %d first would answer %s and %s and leave %s, sink %d first %s and %s and leave %s%n"
                                    + "how they ran: %s%n%s",
                            SinkRules.TRANSACTION_RULE, i + 1, step.writer(), step.token(), brief(paused), step.other(),
                            step.otherToken(), brief(other), outcome.after() == null ? "none" : outcome.after().highWaterMark(),
                            step.writer(), paused,
                            step.other(), other, outcome.after(), step.writer(), pausedFirst.result(), otherAfter.result(),
                            otherAfter.after(), step.other(), pausedAfter.result(), otherFirst.result(), pausedAfter.after(),
                            describe(step, outcome), where(i))
                    .isTrue();
            model = asPausedFirst ? otherAfter.after() : pausedAfter.after();
        }

        /** Returns an answer in a word or two, for a message's first line: the whole of it follows on later lines. */
        private static String brief(Object answered) {
            return answered instanceof WriteResult result ? (result.accepted() ? "was accepted" : "was rejected") : "threw";
        }

        /** Returns what a write answered: its result, or what it threw. */
        private static Object answered(Call call) {
            return call.error() == null ? call.result() : "an exception, " + SinkRules.explained(call.failure());
        }

        private String describe(WriteSchedule.Step step, PausedWrites.Outcome outcome) {
            if (outcome.pausePoint() == 0) {
                return "sink " + step.other() + " ran to its end before sink " + step.writer() + " began";
            }
            if (outcome.pausedAfter() == null) {
                return "sink " + step.writer() + " ended before its statement " + step.pauseAfter() + ", then sink "
                        + step.other() + " wrote";
            }
            return "sink " + step.writer() + " paused after \"" + outcome.pausedAfter() + "\""
                    + (outcome.writeLockHeld() ? " holding the write lock" : " without the write lock") + ", and sink "
                    + step.other() + (outcome.secondFinishedMeanwhile() ? " ran to its end meanwhile" : " had to wait");
        }

        /** Names step {@code i} of the schedule, with the steps just before it and the marks committed so far. */
        private String where(int i) {
            List<String> before = schedule.subList(Math.max(0, i - 3), i).stream().map(Object::toString).collect(Collectors.toList());
            return String.format("step %d of %d of the schedule (seed %d, %d sinks, the mark starting at %d): %s; the steps"
                            + " just before it: %s; the marks in commit order, this step's included: %s", i + 1, schedule.size(), SCHEDULE_SEED,
                    WRITERS, START_MARK, schedule.get(i), before.isEmpty() ? "none" : before, marks());
        }

        private List<Long> marks() {
            return SinkTable.commitLog(file).stream().map(SinkTable.Change::highWaterMark).collect(Collectors.toList());
        }
    }
}
