package fencing.reasoning;

import fencing.support.evidence.Evidence;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the figures an answer quotes ({@code Figures: token=12 lease=7587... wait-ms=2342.8 mark=9}) against the
 * {@code evidence.json} of the case the question asks about, read through the lab's own evidence records.
 *
 * <p>It reads what {@code ANSWERS.md} tells students to write, and nothing looser: figures separated by spaces or
 * commas; {@code token=N} and {@code mark=N} with {@code N} a whole number of digits; {@code lease=ID} in decimal
 * digits or in hex after {@code 0x}; {@code wait-ms=M} with {@code M} milliseconds, digits with an optional decimal
 * point and fraction, within 1 ms of the evidence's figure.
 */
public final class EvidenceFigures {

    /** The folder of a submission that holds {@code ./kit study --case all}'s output: one folder per case. */
    public static final String STUDY = "study";

    /** Where an older submission keeps the evidence of one case, tried in order when {@code study/CASE/} is missing. */
    public static final List<String> SINGLE = List.of(Evidence.FILE, "build/my-fence-study/" + Evidence.FILE);

    private static final Pattern WHOLE = Pattern.compile("\\d+");
    private static final Pattern MILLIS = Pattern.compile("\\d+(\\.\\d+)?");
    private static final Pattern HEX = Pattern.compile("0[xX]([0-9a-fA-F]+)");

    /** How far a quoted wait may be from the evidence's, in milliseconds: students round. */
    private static final double WAIT_TOLERANCE_MILLIS = 1.0;

    private final String where;
    private final Set<Long> tokens = new TreeSet<>();
    private final Set<String> leases = new TreeSet<>();
    private final List<Double> waits = new ArrayList<>();
    private final Set<Long> marks = new TreeSet<>();

    /** Reads what the figures may be checked against from {@code evidence}, found at {@code where} (named in the problems). */
    public EvidenceFigures(Evidence.Study evidence, String where) {
        this.where = where;
        for (Evidence.Repeat repeat : evidence.repeats()) {
            for (Evidence.Holder holder : new Evidence.Holder[] {repeat.lock().a(), repeat.lock().b()}) {
                if (holder != null) {
                    tokens.add(holder.token());
                    leases.add(Long.toString(holder.leaseId()));
                    leases.add("0x" + Long.toHexString(holder.leaseId()));
                }
            }
            if (repeat.lock().expiry() != null) {
                waits.add(repeat.lock().expiry().waitAfterStopMillis());
            }
            repeat.modes().values().forEach(mode -> marks.add(mode.finalHighWaterMark()));
        }
        Evidence.Stats stats = evidence.summary().expiryWaitAfterStop();
        for (Double figure : new Double[] {stats.medianMillis(), stats.maxMillis(), stats.minMillis()}) {
            if (figure != null) {
                waits.add(figure);
            }
        }
    }

    /**
     * Finds the evidence of {@code caseName} in {@code submission}: {@code study/CASE/evidence.json}, or else a single
     * {@code evidence.json} whose case is that one; what could not be read goes into {@code notes}.
     */
    public static Optional<EvidenceFigures> forCase(Path submission, String caseName, List<String> notes) {
        List<String> tried = new ArrayList<>();
        tried.add(STUDY + "/" + caseName + "/" + Evidence.FILE);
        tried.addAll(SINGLE);
        for (String location : tried) {
            Path file = submission.resolve(location);
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            try {
                Evidence.Study evidence = Evidence.read(file);
                if (evidence.caseName().equals(caseName)) {
                    return Optional.of(new EvidenceFigures(evidence, location));
                }
                if (location.startsWith(STUDY + "/")) {
                    notes.add(location + " holds the evidence of case " + evidence.caseName() + ", not of " + caseName);
                }
            } catch (IOException | IllegalArgumentException e) {
                String note = location + " could not be read as the lab's evidence, so no figure was checked against it: " + e.getMessage();
                if (!notes.contains(note)) {
                    notes.add(note);
                }
            }
        }
        return Optional.empty();
    }

    /** Returns what does not match in {@code figures}, one line per figure; empty when every figure matches. */
    public List<String> problems(String figures) {
        List<String> problems = new ArrayList<>();
        for (String figure : figures.strip().split("[\\s,]+")) {
            if (figure.isEmpty()) {
                continue;
            }
            String[] parts = figure.split("=", 2);
            String key = parts[0].toLowerCase(Locale.ROOT);
            String value = parts.length > 1 ? parts[1].strip() : "";
            String problem = switch (key) {
                case "token" -> number(value) != null && tokens.contains(number(value)) ? null
                        : "token " + value + " is not A's or B's token in any repeat of " + where + " " + tokens;
                case "lease" -> lease(value) != null && leases.contains(lease(value)) ? null
                        : "lease " + value + " is not A's or B's lease ID (decimal, or hex after 0x) in any repeat of " + where;
                case "wait-ms" -> decimal(value) != null && waits.stream().anyMatch(w -> Math.abs(w - decimal(value)) <= WAIT_TOLERANCE_MILLIS)
                        ? null : "wait-ms " + value + " is not a wait after SIGSTOP in " + where + " " + waits;
                case "mark" -> number(value) != null && marks.contains(number(value)) ? null
                        : "mark " + value + " is not a final high-water mark in " + where + " " + marks;
                default -> "unknown figure \"" + figure + "\": quote token=, lease=, wait-ms= or mark=";
            };
            if (problem != null) {
                problems.add(problem);
            }
        }
        return problems;
    }

    /** Returns a quoted lease ID as the evidence's set holds it (decimal digits, or {@code 0x} and lower-case hex), or null. */
    private static String lease(String value) {
        Matcher hex = HEX.matcher(value);
        if (hex.matches()) {
            return "0x" + hex.group(1).toLowerCase(Locale.ROOT).replaceFirst("^0+(?=.)", "");
        }
        return WHOLE.matcher(value).matches() ? value.replaceFirst("^0+(?=.)", "") : null;
    }

    private static Long number(String value) {
        if (!WHOLE.matcher(value).matches()) {
            return null;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException tooLarge) {
            return null;
        }
    }

    private static Double decimal(String value) {
        return MILLIS.matcher(value).matches() ? Double.parseDouble(value) : null;
    }
}
