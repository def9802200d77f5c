package fencing.lab.run;

import fencing.lab.sink.Mode;
import fencing.lab.sink.FencedVariant;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * A case: one experiment the study can run, named on the command line; what it does once B holds the lock, what it
 * expects, and how it explains the outcome.
 *
 * <p>Every repeat starts the same way (A takes the lock and is frozen, or in a case with {@link #aClockRate} runs on
 * without renewing its lease, or in a case that {@link #cutsAFromEtcd} runs on cut off from etcd; its lease expires, B takes the lock); then the runner runs the case's {@link #steps()} in order, each a value run against the repeat's
 * {@link Stage}, and judges the repeat's journal against {@link #expected()}, {@link #expectedMark()} and
 * {@link #check}. A new case is one class implementing this, named in {@code fencing.lab.run.cases.Cases.ALL}; a step it needs that no case
 * took before is one more {@link Step} record. {@link CaseToRun} is a case prepared to run on the classes at hand.
 *
 * <p>The chaos run ({@code --case chaos}) is not a case of this kind: it has no steps, and a checker judges its history.
 */
public interface LabCase {

    /** Returns the name on the command line, e.g. {@code late-write}. */
    String name();

    /** Returns the title of the report. */
    String title();

    /** The token C makes up in the forged case: far above any revision the lab's etcd will reach. */
    long FORGED_TOKEN = 1_000_000_000_000L;

    /**
     * What a case expects of one sink mode: the verdicts on A's late write, on B's write and on C's forged write, and the final value.
     *
     * @param aLateVerdict {@link Verdict#ACCEPTED}, {@link Verdict#REJECTED} or {@link Verdict#NOT_SENT}
     * @param bVerdict     {@link Verdict#ACCEPTED} or {@link Verdict#REJECTED}
     * @param cVerdict     {@link Verdict#ACCEPTED} or {@link Verdict#REJECTED}, or {@code null} where C does not write
     */
    record ModeExpectation(Verdict aLateVerdict, String finalValue, Verdict bVerdict, Verdict cVerdict) {

        /** Expects B's write accepted, and no forged write. */
        public ModeExpectation(Verdict aLateVerdict, String finalValue) {
            this(aLateVerdict, finalValue, Verdict.ACCEPTED, null);
        }
    }

    /**
     * What a case expects of one ledger.
     *
     * @param verdicts   B's attempts of its request, in order: {@link Verdict#LOST}, {@link Verdict#ACCEPTED}, {@link Verdict#REJECTED} or
     *                   {@link Verdict#DUPLICATE}
     * @param finalTotal the ledger's total at the end
     */
    record LedgerExpectation(List<Verdict> verdicts, long finalTotal) {
    }

    /** Whose token the fenced mode's mark should end at ({@link Holder#C} for the forged token), and how to say why. */
    record ExpectedMark(Holder holder, String why) {
    }

    /** Returns whether the case stops etcd and restores it, so that it needs an etcd of its own rather than a shared one. */
    default boolean restoresEtcd() {
        return false;
    }

    /**
     * Returns whether the runner kills etcd's leader member while A is frozen, so that the case needs a three-member
     * cluster of its own rather than a shared etcd.
     */
    default boolean failsOverLeader() {
        return false;
    }

    /**
     * Returns the rate of A's own clock where A, instead of being frozen, holds a lease it never renews and writes only
     * while a timer on that clock says the lease is valid; empty where A is frozen, as in most cases.
     */
    default OptionalDouble aClockRate() {
        return OptionalDouble.empty();
    }

    /**
     * Returns whether A, instead of being frozen, runs on while the run cuts its path to etcd (not its path to the sink),
     * so that its keepalives go unanswered and its lease expires while it works.
     */
    default boolean cutsAFromEtcd() {
        return false;
    }

    /** Returns this case with A's clock at {@code rate}, where it has one ({@link #aClockRate}); this case otherwise. */
    default LabCase withAClockRate(double rate) {
        return this;
    }

    /** Returns which sink serves the fenced mode. */
    default FencedVariant fencedSink() {
        return FencedVariant.FENCED;
    }

    /** Returns, by mode and in the order the runner reads them, what A's late write should get and where each mode should end. */
    Map<Mode, ModeExpectation> expected();

    /** Returns, by ledger and in the order the runner reads them, what B's attempts should get and where each ledger should end. */
    default Map<String, LedgerExpectation> expectedLedgers() {
        return Map.of();
    }

    /** Returns whether the case needs C, a process that never holds the lock and writes with {@link #FORGED_TOKEN}. */
    default boolean forgesToken() {
        return false;
    }

    /** Returns whose token the fenced mode's high-water mark should end at, where the case has a fenced mode. */
    default ExpectedMark expectedMark() {
        return new ExpectedMark(Holder.B, "B's token");
    }

    /** Returns what happened and why, in the lesson's words, for the report. */
    String explanation();

    /** Returns how the evidence should read A's accepted late write, or {@code null} when the case expects none in the fenced mode. */
    default String contractNote() {
        return null;
    }

    /** Returns the case's part of the repeat, in order: B holds the lock when the first step runs, and A is frozen with its write not yet sent. */
    List<Step> steps();

    /**
     * Adds to {@code differences} what else the case needs to see in {@code outcome}; nothing by default.
     *
     * <p>Judge only on what a run cannot miss: an observation that sampling can miss belongs in {@link #notes}.
     */
    default void check(Outcome outcome, List<String> differences) {
    }

    /** Adds to {@code notes} what supports the verdict but depends on timing, such as a sampled TTL; nothing by default. */
    default void notes(Outcome outcome, List<String> notes) {
    }

    /**
     * Returns whether the case shows Part 4, the extension, so that it cannot run until the student's Part 4 classes
     * are written; the other cases leave their {@code current-owner} mode out until then ({@link CaseToRun#onTheClassesAtHand}).
     */
    default boolean needsExtension() {
        return false;
    }

    /** Returns the modes in the order the runner writes and reads them. */
    default List<Mode> modes() {
        return List.copyOf(expected().keySet());
    }

    /** Returns the ledgers in the order the runner reads them. */
    default List<String> ledgers() {
        return List.copyOf(expectedLedgers().keySet());
    }
}
