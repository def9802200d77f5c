package fencing.lab.history;

import fencing.lab.sink.Mode;
import java.io.PrintStream;
import java.util.Locale;

/** Prints one mode's linearizability result under its counts, in the words of {@code ./kit check-history}. */
final class LinearizabilityReport {

    private static final String INDENT = "  " + " ".repeat(14) + " ";

    private LinearizabilityReport() {
    }

    /** Prints {@code result} for {@code mode}; times are seconds since {@code originMicros}, the history's first write. */
    static void print(PrintStream out, Mode mode, HistoryChecker.Contract contract, Linearizability.Result result, long originMicros) {
        String model = result.model().description();
        switch (result.answer()) {
            case LINEARIZABLE -> out.printf(Locale.ROOT, "%slinearizable: an order of its writes is one of %s (%d states searched)%n",
                    INDENT, model, result.states());
            case UNKNOWN -> out.printf(Locale.ROOT, "%slinearizability UNKNOWN: the search stopped at its bound of %d states "
                    + "(raise it with --max-states N)%n", INDENT, result.maxStates());
            case NOT_LINEARIZABLE -> {
                String judged = contract == HistoryChecker.Contract.NONE ? "NOT linearizable, as expected of " + mode.text()
                        : "NOT LINEARIZABLE: a VIOLATION in " + mode.text();
                out.printf(Locale.ROOT, "%s%s: no order of its writes is one of %s (%d states searched)%n", INDENT, judged, model, result.states());
                out.printf(Locale.ROOT, "%s%s%n", INDENT, result.narrowed()
                        ? "the shortest stretch that no order explains, " + result.stretch().size() + " writes:"
                        : "the bound stopped the search for the shortest stretch; the write the search could not get past:");
                result.stretch().forEach(operation -> out.println(INDENT + "  " + describe(operation, originMicros)));
            }
        }
    }

    private static String describe(Operation operation, long originMicros) {
        String answered = operation.outcome() == Operation.Outcome.UNKNOWN ? "no answer"
                : String.format(Locale.ROOT, "answered %.6f s", (operation.answeredAtMicros() - originMicros) / 1e6);
        return String.format(Locale.ROOT, "line %d: %s, token %d, value %s, sent %.6f s, %s: %s", operation.line(), operation.writer(),
                operation.token(), operation.value(), (operation.invokedAtMicros() - originMicros) / 1e6, answered,
                operation.outcome().name().toLowerCase(Locale.ROOT));
    }
}
