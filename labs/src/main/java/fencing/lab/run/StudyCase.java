package fencing.lab.run;

import fencing.lab.sink.FencedVariant;
import java.util.List;
import java.util.Map;

/**
 * One experiment the study can run: what it does once B holds the lock, what it expects, and how it explains the outcome.
 *
 * <p>Every repeat starts the same way (A takes the lock and is frozen, its lease expires, B takes the
 * lock); then the runner hands the case a {@link Scene} to {@link #play}, and judges the outcome
 * against {@link #expected()}, {@link #expectedMark()} and {@link #check}. A new case is one class
 * implementing this, named in {@link Cases#ALL}.
 */
public interface StudyCase extends LabCase {

    /** What a case expects of one sink mode. */
    record ModeExpectation(String aLateVerdict, String finalValue) {
    }

    /** Whose token the fenced mode's mark should end at ({@code A} or {@code B}), and how to say why. */
    record ExpectedMark(String holder, String why) {
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

    /** Returns which sink serves the fenced mode. */
    default FencedVariant fencedSink() {
        return FencedVariant.FENCED;
    }

    /** Returns, by mode and in the order the runner reads them, what A's late write should get and where each mode should end. */
    Map<String, ModeExpectation> expected();

    /** Returns whose token the fenced mode's high-water mark should end at. */
    default ExpectedMark expectedMark() {
        return new ExpectedMark("B", "B's token");
    }

    /** Returns what happened and why, in the lesson's words, for the report. */
    String explanation();

    /** Returns how the evidence should read A's accepted late write, or {@code null} when the case expects none in the fenced mode. */
    default String contractNote() {
        return null;
    }

    /** Runs the case's part of the repeat: B holds the lock, A is frozen with its write not yet sent. */
    void play(Scene scene);

    /** Adds to {@code differences} what else the case needs to see in {@code outcome}; nothing by default. */
    default void check(Outcome outcome, List<String> differences) {
    }

    /** Returns the modes in the order the runner writes and reads them. */
    default List<String> modes() {
        return List.copyOf(expected().keySet());
    }
}
