package fencing.lab;

/**
 * Where worker A and the sink server find their classes, and how the evidence says so.
 *
 * @param path the class path the lab's child JVMs run on
 * @param note what {@code evidence.json} says of it
 */
record ChildClassPath(String path, String note) {
}
