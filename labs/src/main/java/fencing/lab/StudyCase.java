package fencing.lab;

import java.util.Locale;

/** The experiments the study can run, each with the outcome it expects. */
enum StudyCase {

    /** The worker that came back: A's late write after B's, with A's old token. */
    LATE_WRITE("late-write", "The worker that came back",
            SinkServer.FencedVariant.FENCED,
            "accepted", "A-late", "rejected", "B-current",
            "A was frozen with SIGSTOP, so its keepalives stopped and etcd expired its lease. B then took the lock with a"
                    + " larger token and wrote B-current. A, resumed, still believed it held the lock and wrote A-late with its old"
                    + " token. The plain sink stored it: B's write is lost. The fenced sink had seen B's larger token, so it rejected A."),

    /** The extension: A writes after its lease is gone but before B has reached the sink. */
    PRE_CONTACT("pre-contact", "A writes before B reaches the sink",
            SinkServer.FencedVariant.FENCED,
            "accepted", "B-current", "accepted", "B-current",
            "A's lease expired and B took the lock, but A wrote before B had contacted the sink. The fenced sink had not yet"
                    + " seen any token larger than A's, so it accepted A: its high-water mark only rejects generations older than"
                    + " one it has seen. That is the narrower contract the experiment demonstrates, not a violation of it: no"
                    + " write was accepted after a newer one, and B's write, arriving later with a larger token, still won."
                    + " Mutual exclusion in time was lost (A wrote while B held the lock); ordering at the sink was not."),

    /** The sink process is killed after B's write and restarted before A's: the mark is durable. */
    RESTART("restart", "The sink restarts between B's write and A's",
            SinkServer.FencedVariant.FENCED,
            "accepted", "A-late", "rejected", "B-current",
            "After B's write the sink server was killed with SIGKILL (no shutdown, no flush on the way out) and started again"
                    + " over the same files. The fenced sink's high-water mark is a column in SQLite, committed with B's value, so"
                    + " the restarted sink still knew B's token and rejected A. A mark kept in memory would have been lost."),

    /** The broken sink compares outside its transaction, and B commits in the gap. */
    CHECK_OUTSIDE_TRANSACTION("check-outside-transaction", "The comparison outside the transaction",
            SinkServer.FencedVariant.CHECK_OUTSIDE_TRANSACTION,
            "accepted", "A-late", "accepted", "A-late",
            "The fenced mode ran CheckOutsideTransactionSink, which reads the mark and compares before opening its"
                    + " transaction. A's late write passed the check (the mark was still below A's token), then was held between"
                    + " check and write; meanwhile B wrote B-current with its larger token and committed. When A's write went on,"
                    + " the sink stored A-late over B's value and even set the mark back to A's token. With the comparison inside"
                    + " one BEGIN IMMEDIATE transaction, as in FencedSink, B would have waited for A's transaction and then won.");

    private final String label;
    private final String title;
    private final SinkServer.FencedVariant fencedVariant;
    private final String plainALate;
    private final String plainFinal;
    private final String fencedALate;
    private final String fencedFinal;
    private final String explanation;

    StudyCase(String label, String title, SinkServer.FencedVariant fencedVariant, String plainALate, String plainFinal,
              String fencedALate, String fencedFinal, String explanation) {
        this.label = label;
        this.title = title;
        this.fencedVariant = fencedVariant;
        this.plainALate = plainALate;
        this.plainFinal = plainFinal;
        this.fencedALate = fencedALate;
        this.fencedFinal = fencedFinal;
        this.explanation = explanation;
    }

    /** Returns the name on the command line, e.g. {@code late-write}. */
    String label() {
        return label;
    }

    String title() {
        return title;
    }

    SinkServer.FencedVariant fencedVariant() {
        return fencedVariant;
    }

    /** Returns the verdict the case expects on A's late write in {@code mode}. */
    String expectedALateVerdict(String mode) {
        return mode.equals("plain") ? plainALate : fencedALate;
    }

    /** Returns the value the case expects {@code mode} to end with. */
    String expectedFinal(String mode) {
        return mode.equals("plain") ? plainFinal : fencedFinal;
    }

    String explanation() {
        return explanation;
    }

    /** Returns how the evidence should read A's accepted late write, or {@code null} when the case expects none in the fenced mode. */
    String contractNote() {
        switch (this) {
            case PRE_CONTACT:
                return "A's late write was accepted under the narrower contract: a high-water mark only rejects generations"
                        + " older than one the sink has seen, and when A wrote, the sink had not yet seen B's larger token.";
            case CHECK_OUTSIDE_TRANSACTION:
                return "A's late write was accepted although B's larger token had committed first: the broken sink compared"
                        + " against a mark it read outside its transaction. This breaks the contract; it is the defect on show.";
            default:
                return null;
        }
    }

    /** Parses a command-line name, e.g. {@code late-write}. */
    static StudyCase of(String label) {
        for (StudyCase studyCase : values()) {
            if (studyCase.label.equals(label.trim().toLowerCase(Locale.ROOT))) {
                return studyCase;
            }
        }
        throw new IllegalArgumentException("unknown case '" + label + "': use late-write, pre-contact, restart or check-outside-transaction");
    }

    @Override
    public String toString() {
        return label;
    }
}
