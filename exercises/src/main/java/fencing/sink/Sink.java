package fencing.sink;

/** A protected resource backed by a database: writers send a token with every write. */
public interface Sink {

    /** Offers a write carrying {@code token}; returns the verdict and the state after the call. */
    WriteResult write(long token, String value);

    /** Reads the sink's current state. */
    SinkState read();
}
