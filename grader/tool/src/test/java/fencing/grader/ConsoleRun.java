package fencing.grader;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * One run of a command of the grader in this JVM, with what it printed on standard output and error.
 *
 * @param exit the command's exit code
 * @param text what it printed, output and errors interleaved
 */
public record ConsoleRun(int exit, String text) {

    /** Runs {@code command}, which returns an exit code, catching what it prints. */
    public static ConsoleRun of(Supplier<Integer> command) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream out = System.out;
        PrintStream err = System.err;
        PrintStream both = new PrintStream(text, true, StandardCharsets.UTF_8);
        System.setOut(both);
        System.setErr(both);
        try {
            return new ConsoleRun(command.get(), text.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
