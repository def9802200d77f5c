package fencing.lab.run;

/** One of the lesson's writers, spelled as its letter in the evidence, the logs and the sink's requests. */
public enum Holder {

    /** Worker A: holds the lock first, is frozen, and comes back late. */
    A,
    /** B: takes the lock once A's lease is gone. */
    B,
    /** Writer C: never holds the lock, and makes its token up. */
    C
}
