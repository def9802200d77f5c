package fencing.lab.run;

/**
 * One thing a case does once B holds the lock and A is frozen: a value, run against the repeat's {@link Stage}.
 *
 * <p>A step appends what it did and saw to the stage's journal, and fails the repeat, with an
 * {@link IllegalStateException} or a {@link LabProcess.ChildFailed}, if a process or the sink fails. A case lists its
 * steps in {@link StudyCase#steps()}; the steps there are records, grouped by what they act on: {@link OwnerSteps} (A
 * and B), {@link HoldSteps}, {@link RequestSteps}, {@link RestoreSteps} and {@link RestartSink}.
 */
public interface Step {

    /** Does the step on {@code stage}. */
    void run(Stage stage);
}
