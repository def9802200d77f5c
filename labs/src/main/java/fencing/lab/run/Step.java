package fencing.lab.run;

/**
 * One thing a case does once B holds the lock and A is frozen: a value, run against the repeat's {@link Stage}.
 *
 * <p>A step appends what it did and saw to the stage's journal, and fails the repeat, with an
 * {@link IllegalStateException} or a {@link LabProcess.ChildFailed}, if a process or the sink fails. A case lists its
 * steps in {@link LabCase#steps()}; the steps there are records in {@code fencing.lab.run.cases}, grouped by what they
 * act on: {@code OwnerSteps} (A and B), {@code HoldSteps}, {@code RequestSteps}, {@code RestoreSteps} and {@code RestartSink}.
 */
public interface Step {

    /** Does the step on {@code stage}. */
    void run(Stage stage);
}
