package fencing.lab.sink;

import fencing.sink.ConnectionSource;
import fencing.sink.FencedSink;
import fencing.sink.Sink;

/** Which implementation serves the {@code fenced} mode. */
public enum FencedVariant {
    /** The contract's {@link FencedSink}: the comparison is inside one transaction. */
    FENCED("fenced", FencedSink.class.getName()),
    /** The broken {@link CheckOutsideTransactionSink}, with a hold the runner controls. */
    CHECK_OUTSIDE_TRANSACTION("check-outside-transaction", CheckOutsideTransactionSink.class.getName());

    private final String label;
    private final String implementation;

    FencedVariant(String label, String implementation) {
        this.label = label;
        this.implementation = implementation;
    }

    /** Returns the name used on the command line and in evidence. */
    public String label() {
        return label;
    }

    /** Returns the class that serves the mode, e.g. {@code fencing.sink.FencedSink}. */
    public String implementation() {
        return implementation;
    }

    /** Opens this variant over {@code db}; the broken sink pauses in {@code pause} between its check and its write. */
    Sink open(ConnectionSource db, CheckOutsideTransactionSink.Pause pause) {
        return this == FENCED ? new FencedSink(db) : new CheckOutsideTransactionSink(db, pause);
    }

    /** Parses a command-line name. */
    public static FencedVariant of(String label) {
        for (FencedVariant variant : values()) {
            if (variant.label.equals(label)) {
                return variant;
            }
        }
        throw new IllegalArgumentException("unknown fenced sink '" + label + "': use fenced or check-outside-transaction");
    }
}
