package fencing.basics;

/**
 * A resource that a lock holder writes to, such as a file, a table or a storage service.
 *
 * <p>Provided code: identical for everyone.
 */
public interface ProtectedResource {

    /**
     * Offers a write made by a lock holder that carries {@code token}.
     *
     * @return {@code true} if the write was accepted, {@code false} if it was rejected
     */
    boolean write(long token, String value);

    /** Returns the value of the last accepted write, or {@code null} before any accepted write. */
    String value();
}
