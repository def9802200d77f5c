package fencing.lab.common;

import java.time.Instant;
import java.util.Locale;

/** Wall-clock instants as epoch microseconds, comparable across the lab's processes on one machine. */
public final class Times {

    private Times() {
    }

    /** Returns now, in microseconds since the epoch. */
    public static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** Formats epoch microseconds as an ISO-8601 instant. */
    public static String iso(long epochMicros) {
        return Instant.ofEpochSecond(Math.floorDiv(epochMicros, 1_000_000L), Math.floorMod(epochMicros, 1_000_000L) * 1_000L).toString();
    }

    /** Formats a span in microseconds as seconds with two decimals, e.g. {@code 2.31 s}. */
    public static String seconds(long micros) {
        return String.format(Locale.ROOT, "%.2f s", micros / 1_000_000.0);
    }

    /** Converts microseconds to milliseconds with one decimal, for figures people compare. */
    public static double millis(long micros) {
        return Math.round(micros / 100.0) / 10.0;
    }
}
