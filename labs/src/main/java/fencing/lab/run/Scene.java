package fencing.lab.run;

/**
 * The steps a {@link StudyCase} plays with, once B holds the lock and A is frozen.
 *
 * <p>Each step records its events and progress lines and fails the repeat if a process or the sink fails.
 */
public interface Scene {

    /** B writes {@code B-current} with its token to each of {@code modes} at once. */
    void writeB(String... modes);

    /** A is told to write {@code A-late} to each of {@code modes} and resumed; returns without waiting for its write. */
    void resumeAWriting(String... modes);

    /** Waits for A's write to be done, and reports its verdicts. */
    void awaitAWrote();

    /** A writes late: {@link #resumeAWriting} and {@link #awaitAWrote}. */
    default void lateWriteA(String... modes) {
        resumeAWriting(modes);
        awaitAWrote();
    }

    /** Kills the sink server with SIGKILL and starts a new one over the same files and port. */
    void restartSink();

    /** Arms the broken sink to hold the next fenced write between its check and its write. */
    void armHold();

    /** Waits until the broken sink holds A's write. */
    void awaitHeld();

    /** Lets the held write go on. */
    void releaseHold();

    /** Prints a progress line, e.g. what the case is about to show. */
    void progress(String format, Object... args);
}
