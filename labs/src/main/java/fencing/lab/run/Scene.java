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

    /** B stops keeping its lease alive and releases the lock. */
    void releaseB();

    /** Saves a snapshot of etcd's keyspace (the maintenance API's snapshot); returns the revision it holds. */
    long snapshotEtcd();

    /**
     * A new owner {@code name} takes the lock, writes {@code name} with its token to each of {@code modes} and releases.
     *
     * @param epochTokens whether the owner uses {@code EpochLockService} (token {@code Tokens.compose(epoch, create_revision)})
     *                    rather than {@code EtcdLockService} (token = create_revision)
     * @return the owner's token
     */
    long ownerWrites(String name, boolean epochTokens, String... modes);

    /** Stops etcd and brings it back from the last snapshot (or as a replacement cluster, where no restore tool is found). */
    void restoreEtcd();

    /** Runs {@code Recovery.afterRestore} with the fenced sink's mark as the highest token seen; returns the new epoch. */
    long recoverEpoch();

    /** Copies the sink's database files aside, as a backup. */
    void backUpSink();

    /** Kills the sink server, puts the backup's files in place of its databases, and starts a new server over them. */
    void restoreSinkBackup();

    /** C, a process that never held the lock, writes {@code C-forged} with {@link StudyCase#FORGED_TOKEN} to each of {@code modes} at once. */
    void forgedWrite(String... modes);

    /** Tells the sink server to lose its first answer to request {@code requestId} of each ledger, after applying it. */
    void loseFirstResponse(String requestId);

    /** B sends request {@code requestId} to add {@code amount} to each of {@code ledgers}, and retries it with the same id when the answer is lost. */
    void addB(String requestId, long amount, String... ledgers);

    /** Prints a progress line, e.g. what the case is about to show. */
    void progress(String format, Object... args);
}
