package fencing.sink;

/**
 * What a sink holds: its value and its high-water mark.
 *
 * @param value         the value of the last accepted write, or {@code null} before any
 * @param highWaterMark the highest token accepted so far, or 0 before any
 */
public record SinkState(String value, long highWaterMark) {
}
