package fencing.basics;

/**
 * The outcome of the pre-contact timeline: A writes late, after B acquired but before B wrote.
 *
 * <p>Provided code: identical for everyone.
 *
 * @param lateWriteAccepted whether the resource accepted A's late write with its old token
 * @param finalValue        the resource's value after B's write
 */
public record PreContact(boolean lateWriteAccepted, String finalValue) {
}
