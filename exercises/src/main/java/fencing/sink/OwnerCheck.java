package fencing.sink;

/**
 * Asks the lock service whether a token is the current holder's.
 *
 * <p>Provided code. A sink that asks this for every write accepts only the current owner's writes,
 * not merely writes that are not older than the last one it saw.
 */
@FunctionalInterface
public interface OwnerCheck {

    /** Tells whether {@code token} is the current holder's token, as the lock service sees it now. */
    boolean isCurrent(long token);
}
