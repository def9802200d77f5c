package fencing.reasoning;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Checks the figures an answer quotes ({@code Figures: token=12 lease=7587... wait-ms=2342.8 mark=9}) against the
 * {@code evidence.json} of the student's own lab run.
 */
public final class EvidenceFigures {

    /** Where a submission keeps its run's evidence, tried in order, relative to the submission. */
    public static final List<String> LOCATIONS = List.of("evidence.json", "build/my-fence-study/evidence.json");

    /** How far a quoted wait may be from the evidence's, in milliseconds: students round. */
    private static final double WAIT_TOLERANCE_MILLIS = 1.0;

    private final Set<Long> tokens = new HashSet<>();
    private final Set<String> leases = new HashSet<>();
    private final List<Double> waits = new ArrayList<>();
    private final Set<Long> marks = new HashSet<>();

    /** Reads what the figures may be checked against from a parsed {@code evidence.json}. */
    public EvidenceFigures(JsonNode evidence) {
        for (JsonNode repeat : evidence.path("repeats")) {
            for (String holder : List.of("a", "b")) {
                JsonNode h = repeat.path(holder);
                if (h.has("token")) {
                    tokens.add(h.path("token").asLong());
                }
                if (h.has("leaseId")) {
                    leases.add(Long.toString(h.path("leaseId").asLong()));
                    leases.add(Long.toHexString(h.path("leaseId").asLong()));
                }
            }
            JsonNode wait = repeat.path("expiry").path("waitAfterStopMillis");
            if (wait.isNumber()) {
                waits.add(wait.asDouble());
            }
            repeat.path("modes").forEach(mode -> marks.add(mode.path("finalHighWaterMark").asLong()));
        }
        JsonNode stats = evidence.path("summary").path("expiryWaitAfterStop");
        for (String figure : List.of("medianMillis", "maxMillis", "minMillis")) {
            if (stats.path(figure).isNumber()) {
                waits.add(stats.path(figure).asDouble());
            }
        }
    }

    /** Returns what does not match in {@code figures}, one line per figure; empty when every figure matches. */
    public List<String> problems(String figures) {
        List<String> problems = new ArrayList<>();
        for (String figure : figures.strip().split("[\\s,;]+")) {
            if (figure.isEmpty()) {
                continue;
            }
            String[] parts = figure.split("=", 2);
            String key = parts[0].toLowerCase(Locale.ROOT);
            String value = parts.length > 1 ? parts[1].strip() : "";
            String problem = switch (key) {
                case "token" -> number(value) != null && tokens.contains(number(value)) ? null
                        : "token " + value + " is not A's or B's token in any repeat of evidence.json " + tokens;
                case "lease" -> leases.contains(lease(value)) ? null
                        : "lease " + value + " is not A's or B's lease ID in any repeat of evidence.json";
                case "wait-ms" -> decimal(value) != null && waits.stream().anyMatch(w -> Math.abs(w - decimal(value)) <= WAIT_TOLERANCE_MILLIS)
                        ? null : "wait-ms " + value + " is not a wait after SIGSTOP in evidence.json " + waits;
                case "mark" -> number(value) != null && marks.contains(number(value)) ? null
                        : "mark " + value + " is not a final high-water mark in evidence.json " + marks;
                default -> "unknown figure \"" + figure + "\": quote token=, lease=, wait-ms= or mark=";
            };
            if (problem != null) {
                problems.add(problem);
            }
        }
        return problems;
    }

    private static String lease(String value) {
        String text = value.toLowerCase(Locale.ROOT);
        if (text.startsWith("0x")) {
            return text.substring(2).replaceFirst("^0+(?=.)", "");
        }
        return text;
    }

    private static Long number(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Double decimal(String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
