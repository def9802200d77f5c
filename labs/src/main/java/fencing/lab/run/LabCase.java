package fencing.lab.run;

/** A case the study can run, named on the command line; {@link StudyCase} is the A-and-B repeat, {@code fencing.lab.run.chaos.Chaos} the many-writer run. */
public interface LabCase {

    /** Returns the name on the command line, e.g. {@code late-write}. */
    String name();

    /** Returns the title of the report. */
    String title();
}
