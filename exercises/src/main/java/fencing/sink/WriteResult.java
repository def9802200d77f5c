package fencing.sink;

/**
 * The outcome of one write to a sink, with the sink's state after the call.
 *
 * @param accepted      whether the write was accepted
 * @param highWaterMark the sink's high-water mark after the call
 * @param value         the sink's value after the call
 */
public record WriteResult(boolean accepted, long highWaterMark, String value) {
}
